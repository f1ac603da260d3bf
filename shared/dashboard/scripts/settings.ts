/**
 * The settings pages' enhancements, part of the dashboard's one ES module (shared/dashboard/assets.ts).
 * Enhancement only: every form works without it. Each part looks for its own data- attributes and
 * does nothing on pages without them.
 *
 * - `button[data-copy="<input id>"]` (hidden without the script): copies the shown-once secret
 *   (an API key, a webhook signing secret) to the clipboard and says so in its own text.
 */
export const SETTINGS_SCRIPT = `
for (const button of document.querySelectorAll('button[data-copy]')) {
  const source = document.getElementById(button.dataset.copy);
  if (!source || !navigator.clipboard) continue;
  button.hidden = false;
  const label = button.textContent;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(source.value);
      button.textContent = 'Copied';
    } catch {
      source.select();
      button.textContent = 'Select and copy it';
    }
    setTimeout(() => { button.textContent = label; }, 3000);
  });
}
`;

/**
 * The one script of the hosted pages, served as the ES module /hosted/assets/<hash>.js (assets.ts).
 * It only enhances: every form works without it. While a form submits, its submit button is
 * disabled and says so (no double charge from a double click; the server refuses a second payment
 * of the same invoice anyway).
 */
export const ENHANCE_SCRIPT = `
for (const form of document.querySelectorAll('form[data-busy-label]')) {
  form.addEventListener('submit', () => {
    const button = form.querySelector('button[type="submit"]');
    if (!button) return;
    setTimeout(() => {
      button.disabled = true;
      button.textContent = form.dataset.busyLabel;
      form.setAttribute('aria-busy', 'true');
    }, 0);
  });
}
`;

import type { Item, ItemKey } from '../item.js';

export const CONFIG_ENTITY = 'CONFIG';

/** Service configuration items (e.g. the cursor signing secret), created once on first use. */
export const configKeys = {
  primary: (name: string): ItemKey => ({ PK: `CONFIG#${name}`, SK: 'CONFIG' }),
};

export const configCodec = {
  toItem(name: string, value: string): Item {
    return { ...configKeys.primary(name), entityType: CONFIG_ENTITY, value };
  },
  valueOf(item: Item | undefined): string | undefined {
    return typeof item?.value === 'string' ? item.value : undefined;
  },
};

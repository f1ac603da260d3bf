import { describe, expect, it } from 'vitest';
import { mintKey, requireHeld } from '../../shared/domain/api-keys/grants.js';
import type { Principal } from '../../shared/domain/tenancy.js';
import { ROLE_PERMISSIONS } from '../../shared/domain/users/roles.js';

const person = (role: 'developer' | 'admin'): Principal => ({
  kind: 'ORGANIZATION',
  keyId: 'usr_1',
  organizationId: 'org_1',
  environment: 'SANDBOX',
  permissions: [...ROLE_PERMISSIONS[role]],
  walletId: null,
  userRole: role,
});

describe('granting admin grants approvals:decide (derived)', () => {
  it('refuses admin to a grantor that does not decide approvals (a developer), with details.missing', () => {
    expect(() => requireHeld(person('developer'), ['admin'])).toThrow(
      expect.objectContaining({ code: 'PERMISSION_DENIED', details: { missing: ['approvals:decide'] } }),
    );
    expect(() => requireHeld(person('developer'), ['wallets:read'])).not.toThrow();
    expect(() => requireHeld(person('admin'), ['admin'])).not.toThrow();
  });

  it("a key a person mints carries the person's role", () => {
    const issueKey = () => ({ raw: 'svc_test_raw', hash: 'h', prefix: 'svc_test_', last4: 'raw1' });
    const grant = {
      id: 'key_1',
      name: 'k',
      organizationId: 'org_1',
      environment: 'SANDBOX' as const,
      permissions: ['admin' as const],
      walletId: null,
      createdAt: '2026-11-28T00:00:00.000Z',
    };
    expect(mintKey(issueKey, { principal: person('admin') }, grant).apiKey.createdByUserRole).toBe('admin');
    expect(mintKey(issueKey, { organizationRoot: true }, grant).apiKey.createdByUserRole).toBeUndefined();
  });
});

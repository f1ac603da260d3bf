import { ApiError } from '../../domain/errors.js';
import type { OrganizationChange } from '../../domain/organizations/ports.js';
import { organizationCodec, organizationKeys } from '../entities/organization.js';
import { organizationEnvironmentCodec } from '../entities/organization-environment.js';
import { put, setFields, update, type ChangeWriters } from '../write-builders.js';

export const organizationWriters: ChangeWriters<OrganizationChange> = {
  createOrganization: (tableName, change) => [put(tableName, organizationCodec.toItem(change.organization))],
  updateOrganization: (tableName, change) => {
    const { sets, names, values } = setFields(change.set, 'o_');
    const unless = change.unless;
    const condition =
      unless === undefined
        ? 'attribute_exists(PK)'
        : unless.field === 'productionActivatedAt'
          ? 'attribute_exists(PK) AND attribute_not_exists(productionActivatedAt)'
          : 'attribute_exists(PK) AND kybStatus <> :unlessKyb';
    const conditionValues = unless?.field === 'kybStatus' ? { ':unlessKyb': unless.equals } : {};
    return [
      update(
        tableName,
        organizationKeys.primary(change.organizationId),
        `SET ${sets.join(', ')}`,
        condition,
        { ...values, ...conditionValues },
        names,
        (old) =>
          old
            ? new ApiError('INVALID_STATE', 'The organization changed meanwhile (already activated or verified).')
            : new ApiError('ORGANIZATION_NOT_FOUND'),
      ),
    ];
  },
  createEnvironment: (tableName, change) => [
    put(
      tableName,
      organizationEnvironmentCodec.toItem({
        organizationId: change.organizationId,
        environment: change.environment,
        mainWalletId: change.mainWalletId,
        walletCount: 1,
      }),
      () => new ApiError('INVALID_STATE', `The ${change.environment.toLowerCase()} environment already exists.`),
    ),
  ],
};

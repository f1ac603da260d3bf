/**
 * What an organization completes before its production environment opens (interface-spec 4.11):
 * the activation service checks them, the error view lists the missing ones (ACTIVATION_INCOMPLETE).
 * A leaf, so that views need nothing from the service.
 */
export const ACTIVATION_REQUIREMENTS = ['kybVerified', 'tosAccepted', 'billingMethodAdded'] as const;
export type ActivationRequirement = (typeof ACTIVATION_REQUIREMENTS)[number];

import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Passkey } from '../domain/sign-in/types.js';

/**
 * The relying party passkeys are bound to. `rpId` is a host name: WebAuthn refuses IP addresses, so
 * the local run's http://127.0.0.1:<port> is served to browsers as http://localhost:<port>.
 */
export interface RelyingParty {
  rpId: string;
  origin: string;
  name: string;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', '::1']);

/**
 * The relying party of a base URL (PUBLIC_BASE_URL; without it, the request's own origin): its
 * host, a loopback IP replaced by `localhost` (same scheme and port).
 */
export function relyingPartyOf(baseUrl: string): RelyingParty {
  const url = new URL(baseUrl);
  if (LOOPBACK.has(url.hostname)) url.hostname = 'localhost';
  return { rpId: url.hostname, origin: url.origin, name: 'Allowance' };
}

const TIMEOUT_MS = 120_000;

export function registrationOptions(rp: RelyingParty, user: { id: string; email: string }, existing: Passkey[]) {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.rpId,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    timeout: TIMEOUT_MS,
    excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

export async function verifyRegistration(
  rp: RelyingParty,
  response: unknown,
  challenge: string,
  at: Date,
): Promise<Passkey | undefined> {
  try {
    const result = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
    });
    if (!result.verified) return undefined;
    const { credential } = result.registrationInfo;
    return {
      id: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).slice(0, 8).map(String),
      createdAt: at.toISOString(),
    };
  } catch {
    return undefined;
  }
}

/** Options for a passkey: any discoverable one (sign-in with a passkey alone), or the user's own (step-up). */
export const authenticationOptions = (rp: RelyingParty, allow?: Passkey[]) =>
  generateAuthenticationOptions({
    rpID: rp.rpId,
    timeout: TIMEOUT_MS,
    userVerification: 'required',
    ...(allow
      ? { allowCredentials: allow.map((passkey) => ({ id: passkey.id, transports: passkey.transports })) }
      : {}),
  });

/** What an assertion names before it is verified: the credential and the user handle (our user id). */
export function assertionClaims(
  response: unknown,
): { credentialId: string; userId?: string; challenge?: string } | undefined {
  if (typeof response !== 'object' || response === null) return undefined;
  const { id, response: inner } = response as {
    id?: unknown;
    response?: { userHandle?: unknown; clientDataJSON?: unknown };
  };
  if (typeof id !== 'string' || typeof inner !== 'object' || inner === null) return undefined;
  const userHandle =
    typeof inner.userHandle === 'string' ? Buffer.from(inner.userHandle, 'base64url').toString('utf8') : undefined;
  return { credentialId: id, ...(userHandle ? { userId: userHandle } : {}), ...challengeOf(inner.clientDataJSON) };
}

/** The challenge a response's clientDataJSON answers (to find the stored challenge by). */
export function challengeOf(clientDataJSON: unknown): { challenge?: string } {
  if (typeof clientDataJSON !== 'string') return {};
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' ? { challenge: data.challenge } : {};
  } catch {
    return {};
  }
}

/** The passkey's new counter when the assertion is good, else undefined. */
export async function verifyAssertion(
  rp: RelyingParty,
  response: unknown,
  challenge: string,
  passkey: Passkey,
): Promise<number | undefined> {
  try {
    const result = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
      requireUserVerification: true,
    });
    return result.verified ? result.authenticationInfo.newCounter : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Envelope encryption of sensitive values at rest (bank account numbers, card numbers and CVCs):
 * KMS in AWS (a data key per value, wrapped by the stage's KMS key), a local key in the local run.
 * `context` binds a sealed value to what it belongs to (e.g. the bank account id): opening it
 * under another context fails, so a sealed value copied onto another record is useless.
 */
export interface Sealer {
  seal(plaintext: string, context: string): Promise<string>;
  open(sealed: string, context: string): Promise<string>;
}

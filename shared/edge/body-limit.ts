import { ApiError } from '../domain/errors.js';
import { withThousands } from '../domain/text.js';

/** Largest request body accepted (decisions.md section 9): anything larger is 413 PAYLOAD_TOO_LARGE. */
export const MAX_BODY_BYTES = 1_000_000;

export function payloadTooLarge(): ApiError {
  return new ApiError('PAYLOAD_TOO_LARGE', `The request body exceeds ${withThousands(MAX_BODY_BYTES)} bytes.`, {
    maxBytes: MAX_BODY_BYTES,
  });
}

import { createReviewService, type ReviewService, type ReviewStore } from '../../domain/reviews/review-service.js';
import { createReviewStore } from '../../persistence/review-store.js';
import type { Core } from '../core.js';

export function reviewService(
  core: Core,
  { store = createReviewStore(core.table) }: { store?: ReviewStore } = {},
): ReviewService {
  return createReviewService({ store });
}

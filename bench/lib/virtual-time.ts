/**
 * A discrete-event scheduler in virtual time: `sleep(ms)` resolves when the virtual clock reaches
 * now + ms, and the clock only moves once every microtask has run (the code under test awaits
 * nothing else: memory-dynamo answers in microtasks, its latencies and holds are `sleep`s). So a
 * run of minutes of modelled time takes the CPU the code needs, not the wall time it models, and
 * the order of events is exact and repeatable (ties resolve in the order they were scheduled).
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextMacrotask, setTimeout as realSleep } from 'node:timers/promises';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

export class VirtualTime {
  /** Virtual milliseconds since the start of the run. */
  now = 0;
  private readonly heap: Timer[] = [];
  private seq = 0;

  sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => this.push({ at: this.now + Math.max(0, ms), seq: this.seq++, resolve }));

  /** Runs until nothing is scheduled or the clock would pass `until` (then the rest stays scheduled). */
  async run(until = Infinity): Promise<void> {
    for (;;) {
      // setImmediate runs after the microtask queue is empty: whatever could run at `now` has run.
      await nextMacrotask();
      let next = this.heap[0];
      // Nothing scheduled: real asynchronous work may still be under way (it should not be:
      // see synchronousDigest); give it a moment of real time before calling the run over.
      for (let waited = 0; !next && waited < 20; waited++) {
        await realSleep(1);
        next = this.heap[0];
      }
      if (!next || next.at > until) return;
      this.now = next.at;
      // Everything due now, in scheduling order; their continuations run before the clock moves again.
      while (this.heap[0] && this.heap[0].at === this.now) this.pop()!.resolve();
    }
  }

  /** Whether anything is scheduled. */
  get pending(): number {
    return this.heap.length;
  }

  private push(timer: Timer): void {
    const heap = this.heap;
    heap.push(timer);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private pop(): Timer | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left;
        if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right;
        if (smallest === i) break;
        [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
        i = smallest;
      }
    }
    return top;
  }
}

function before(a: Timer, b: Timer): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/** A seeded PRNG (mulberry32): the bench's jitter and arrivals repeat run to run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * WebCrypto's SHA-256 (derived ids, digests) answers from the thread pool, in real time: the
 * scheduler would move the virtual clock while it runs. The bench swaps in node:crypto's
 * synchronous hash behind the same promise interface (same bytes), so a run stays exact.
 */
export function synchronousDigest(): void {
  const subtle = globalThis.crypto.subtle as {
    digest: (algorithm: unknown, data: ArrayBufferView | ArrayBuffer) => Promise<ArrayBuffer>;
  };
  const original = subtle.digest.bind(subtle);
  subtle.digest = (algorithm, data) => {
    const name = typeof algorithm === 'string' ? algorithm : (algorithm as { name?: string }).name;
    if (name !== 'SHA-256') return original(algorithm, data);
    const bytes = ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data as ArrayBuffer);
    const hash = createHash('sha256').update(bytes).digest();
    return Promise.resolve(hash.buffer.slice(hash.byteOffset, hash.byteOffset + hash.byteLength));
  };
}

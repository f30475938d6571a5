/**
 * A Map that keeps at most `capacity` entries, dropping the oldest-inserted first. For isolate
 * caches: an isolate lives for many requests, so a cache keyed by something callers choose (API key
 * ids, tokens) must not grow without bound.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** Stores `value` as the newest entry (a replaced key moves to the end), evicting the oldest past capacity. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * A BoundedMap whose entries also lapse `lifetimeMs` after they were set: for isolate memories
 * that only save a round trip, kept fresh without anyone having to clear them.
 */
export class ExpiringMap<K, V> {
  readonly #entries: BoundedMap<K, { value: V; until: number }>;

  constructor(
    capacity: number,
    private readonly lifetimeMs: number,
  ) {
    this.#entries = new BoundedMap(capacity);
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: K, value: V): void {
    this.#entries.set(key, { value, until: Date.now() + this.lifetimeMs });
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }
}

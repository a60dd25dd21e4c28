/** Where new identifiers come from (UUIDs in production, sequential in tests). */
export interface IdGenerator {
  next(): string;
}

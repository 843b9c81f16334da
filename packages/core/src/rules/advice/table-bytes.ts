/**
 * The byte layout every solved table of the disk cache shares (docs/advice.md, "Table format"):
 * little-endian,
 *
 *   offset  size  field
 *   0       4     magic (4 ASCII letters, one per table kind)
 *   4       4     format version, uint32 LE
 *   8       4     fingerprint length L in bytes, uint32 LE
 *   12      L     options fingerprint, ASCII
 *   12+L    P     zero padding to a multiple of 8 (= H)
 *   H       4     value count N, uint32 LE
 *   H+4     4     FNV-1a 32-bit hash of the N × 8 value bytes, uint32 LE
 *   H+8     8N    the values, float64 LE
 *
 * Values are float64 so that a loaded table decides exactly as the solve that wrote it.
 */

export interface TableKind {
  /** Four ASCII letters. */
  readonly magic: string;
  readonly version: number;
  /** What a reason names (`five-dice table`, …). */
  readonly name: string;
}

function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return h >>> 0;
}

export function encodeTable(kind: TableKind, fingerprint: string, values: ArrayLike<number>): Uint8Array {
  const header = Math.ceil((12 + fingerprint.length) / 8) * 8;
  const bytes = new Uint8Array(header + 8 + values.length * 8);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i++) bytes[i] = kind.magic.charCodeAt(i);
  view.setUint32(4, kind.version, true);
  view.setUint32(8, fingerprint.length, true);
  for (let i = 0; i < fingerprint.length; i++) bytes[12 + i] = fingerprint.charCodeAt(i) & 0x7f;
  view.setUint32(header, values.length, true);
  const first = header + 8;
  for (let i = 0; i < values.length; i++) view.setFloat64(first + i * 8, values[i], true);
  view.setUint32(header + 4, fnv1a(bytes, first, bytes.length), true);
  return bytes;
}

/**
 * The `count` values of a table written by encodeTable with this kind and fingerprint, or the
 * reason it is not one: wrong magic, version, fingerprint, size or hash.
 */
export function decodeTable(
  kind: TableKind,
  bytes: Uint8Array,
  fingerprint: string,
  count: number,
): { ok: true; values: Float64Array } | { ok: false; reason: string } {
  const bad = (why: string) => ({ ok: false as const, reason: `${kind.name}: ${why}` });
  if (bytes.length < 16 || [0, 1, 2, 3].some((i) => bytes[i] !== kind.magic.charCodeAt(i)))
    return bad('not a table (magic)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== kind.version) return bad(`format version ${version}, expected ${kind.version}`);
  const length = view.getUint32(8, true);
  if (length !== fingerprint.length || 12 + length > bytes.length) return bad('options fingerprint differs');
  for (let i = 0; i < length; i++)
    if (bytes[12 + i] !== fingerprint.charCodeAt(i)) return bad('options fingerprint differs');
  const header = Math.ceil((12 + length) / 8) * 8;
  if (bytes.length !== header + 8 + count * 8 || view.getUint32(header, true) !== count) return bad('size differs');
  const first = header + 8;
  if (view.getUint32(header + 4, true) !== fnv1a(bytes, first, bytes.length)) return bad('hash differs (corrupt)');
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) values[i] = view.getFloat64(first + i * 8, true);
  return { ok: true, values };
}

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
 * A kind with `float32Section` (the five-dice table, version 2) continues with
 *
 *   H+8+8N  4     float32 count M, uint32 LE: N, or 0 when the table has none
 *   H+12+8N 4M    float32 LE values for the same states in the same order
 *
 * and the hash then covers every byte from H+8 to the end. Values are float64 so that a loaded
 * table decides exactly as the solve that wrote it; the float32 section holds figures no decision
 * reads (the upper-bonus chance).
 */

export interface TableKind {
  /** Four ASCII letters. */
  readonly magic: string;
  readonly version: number;
  /** What a reason names (`five-dice table`, …). */
  readonly name: string;
  /** The layout ends with an optional float32 section (see above). */
  readonly float32Section?: boolean;
}

function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return h >>> 0;
}

export function encodeTable(
  kind: TableKind,
  fingerprint: string,
  values: ArrayLike<number>,
  float32s: ArrayLike<number> | null = null,
): Uint8Array {
  if (float32s && (!kind.float32Section || float32s.length !== values.length))
    throw new RangeError(`${kind.name}: a float32 section needs a kind with one and one value per state`);
  const header = Math.ceil((12 + fingerprint.length) / 8) * 8;
  const section = kind.float32Section ? 4 + (float32s?.length ?? 0) * 4 : 0;
  const bytes = new Uint8Array(header + 8 + values.length * 8 + section);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i++) bytes[i] = kind.magic.charCodeAt(i);
  view.setUint32(4, kind.version, true);
  view.setUint32(8, fingerprint.length, true);
  for (let i = 0; i < fingerprint.length; i++) bytes[12 + i] = fingerprint.charCodeAt(i) & 0x7f;
  view.setUint32(header, values.length, true);
  const first = header + 8;
  for (let i = 0; i < values.length; i++) view.setFloat64(first + i * 8, values[i], true);
  if (kind.float32Section) {
    const after = first + values.length * 8;
    view.setUint32(after, float32s?.length ?? 0, true);
    for (let i = 0; i < (float32s?.length ?? 0); i++) view.setFloat32(after + 4 + i * 4, float32s![i], true);
  }
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
): { ok: true; values: Float64Array; float32s: Float32Array | null } | { ok: false; reason: string } {
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
  const first = header + 8;
  const after = first + count * 8;
  if (view.getUint32(header, true) !== count) return bad('size differs');
  let extra = 0;
  if (kind.float32Section) {
    if (bytes.length < after + 4) return bad('size differs');
    extra = view.getUint32(after, true);
    if (extra !== 0 && extra !== count) return bad('size differs');
  }
  if (bytes.length !== after + (kind.float32Section ? 4 + extra * 4 : 0)) return bad('size differs');
  if (view.getUint32(header + 4, true) !== fnv1a(bytes, first, bytes.length)) return bad('hash differs (corrupt)');
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) values[i] = view.getFloat64(first + i * 8, true);
  if (extra === 0) return { ok: true, values, float32s: null };
  const float32s = new Float32Array(count);
  for (let i = 0; i < count; i++) float32s[i] = view.getFloat32(after + 4 + i * 4, true);
  return { ok: true, values, float32s };
}

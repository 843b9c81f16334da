/**
 * The advice tables' disk cache bound (ADVICE_CACHE_MAX_BYTES, docs/advice.md "Tables"): custom
 * tables' files (five-dice and two-player Farkle) in ADVICE_CACHE_DIR by size, the least recently used deleted first; the
 * presets' files are never counted nor deleted. AdviceTablesService reads and writes the files
 * (in its workers); this only keeps the account and removes files.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';

export class TableDiskCache {
  /** Custom tables' files on disk by size, at most maxBytes: the least recently used is deleted. */
  private readonly lru: LRUCache<string, number>;

  constructor(
    private readonly cacheDir: string,
    maxBytes: number,
    private readonly presetFiles: ReadonlySet<string>,
    private readonly logger: Logger,
    /** The tables' file extensions (without the dot): other files in the directory are not counted. */
    private readonly extensions: readonly string[] = ['fdot'],
  ) {
    this.lru = new LRUCache<string, number>({
      maxSize: maxBytes,
      sizeCalculation: (bytes) => Math.max(1, bytes),
      // Only an eviction deletes the file (a set or delete of the same file keeps it).
      dispose: (_bytes, file, reason) => {
        if (reason === 'evict') this.removeFile(file);
      },
    });
  }

  /** Bytes of custom tables' files counted. */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  /** A use: the file becomes the most recently used (when it is counted). */
  touch(file: string): void {
    if (this.lru.has(file)) this.lru.get(file);
  }

  /** A custom table's file was written or read: it counts against ADVICE_CACHE_MAX_BYTES (older files may go). */
  cached(file: string, bytes: number): void {
    if (this.presetFiles.has(file)) return;
    this.lru.set(file, bytes);
    // A file larger than the whole bound is not kept (lru-cache refuses it without an eviction).
    if (!this.lru.has(file)) this.removeFile(file);
  }

  private removeFile(file: string): void {
    try {
      rmSync(file, { force: true });
    } catch (error) {
      this.logger.warn(`advice cache file not removed (${file}): ${String(error)}`);
    }
  }

  /**
   * At start-up: the custom tables' files already in the cache directory, oldest first, so that the
   * bound holds from the start (a smaller ADVICE_CACHE_MAX_BYTES deletes the oldest), and the
   * temporary files of a write a crash interrupted.
   */
  index(): void {
    let names: string[];
    try {
      names = readdirSync(this.cacheDir);
    } catch {
      return; // No directory yet: the first write makes it.
    }
    const files: Array<{ file: string; bytes: number; mtime: number }> = [];
    for (const name of names) {
      const file = join(this.cacheDir, name);
      try {
        if (name.endsWith('.tmp')) {
          // Another instance sharing the directory may be writing it: only an old one is a leftover.
          if (Date.now() - statSync(file).mtimeMs > 3_600_000) rmSync(file, { force: true });
          continue;
        }
        if (!this.extensions.some((ext) => name.endsWith(`.${ext}`)) || this.presetFiles.has(file)) continue;
        const stat = statSync(file);
        files.push({ file, bytes: stat.size, mtime: stat.mtimeMs });
      } catch {
        // Removed meanwhile (another instance): nothing to count.
      }
    }
    files.sort((a, b) => a.mtime - b.mtime);
    for (const { file, bytes } of files) this.cached(file, bytes);
  }
}

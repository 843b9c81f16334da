/**
 * Where a webhook may point (SSRF defence, docs/operations.md *Webhook destinations*).
 *
 * - Only public unicast addresses: ipaddr.js classifies every address (IPv4-mapped IPv6 is
 *   unwrapped first); anything but IPv4 `unicast`, or IPv6 `unicast` inside 2000::/3, is refused:
 *   loopback, RFC 1918 private, link-local (169.254.169.254, the cloud metadata service),
 *   CGNAT 100.64/10, unique-local fc00::/7, 0.0.0.0 and ::, multicast, broadcast, documentation
 *   and benchmarking ranges, NAT64 / 6to4 / Teredo (which embed IPv4 addresses)...
 *   WEBHOOK_ALLOW_PRIVATE_NETWORKS=true turns the check off (tests, private deployments).
 * - Decimal, hex, octal and short IPv4 forms (http://2130706433/, http://0x7f.1/) are normalised
 *   by the WHATWG URL parser to dotted quads before they are classified.
 * - A host name is resolved (all its addresses) at registration and again at every delivery;
 *   every address must be public, and the delivery connects to the address that was checked
 *   (a pinned `lookup` on the request), so a DNS answer that changes between check and connect
 *   (DNS rebinding) cannot reach an internal address. Redirects are never followed.
 * - WEBHOOK_REQUIRE_HTTPS (default on in production) refuses http:// URLs.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress, LookupOneOptions } from 'node:dns';
import { Injectable, Inject, Optional } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { APP_CONFIG, AppConfig } from '../../config/config';

/** Resolves a host name to all its addresses (injectable for tests). */
export type HostResolver = (hostname: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** Why a destination is refused (also the delivery failure category `refused-address`). */
export type RefusalReason = 'non-public-address' | 'unresolvable' | 'https-required';

export type TargetCheck =
  | {
      ok: true;
      url: URL;
      /** the address to connect to; null = let the system resolve (checks off) */ address: string | null;
    }
  | { ok: false; reason: RefusalReason; detail: string };

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** A name that does not resolve within this long is treated as unresolvable. */
export const RESOLVE_TIMEOUT_MS = 5_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS lookup timed out')), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** True for a public unicast address; anything unparsable is not public. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address); // ::ffff:a.b.c.d → a.b.c.d
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  return ip.range() === 'unicast' && (ip as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

/** The URL's host as an address literal (brackets of IPv6 removed), or null for a name. */
function literalAddress(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return ipaddr.isValid(host) ? host : null;
}

@Injectable()
export class WebhookTargets {
  /** Replaced in tests to simulate DNS answers (including ones that change: rebinding). */
  resolve: HostResolver = systemResolver;
  readonly allowPrivate: boolean;
  readonly requireHttps: boolean;

  constructor(@Optional() @Inject(APP_CONFIG) config?: AppConfig) {
    this.allowPrivate = config?.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? false;
    this.requireHttps = config?.WEBHOOK_REQUIRE_HTTPS ?? false;
  }

  /** Checks a (syntactically valid) webhook URL now: at registration and before every delivery. */
  async check(raw: string): Promise<TargetCheck> {
    const url = new URL(raw);
    if (this.requireHttps && url.protocol !== 'https:')
      return { ok: false, reason: 'https-required', detail: 'Webhook URLs must use https://' };
    if (this.allowPrivate) return { ok: true, url, address: null };
    const literal = literalAddress(url);
    let addresses: string[];
    if (literal !== null) addresses = [literal];
    else {
      try {
        addresses = await withTimeout(this.resolve(url.hostname), RESOLVE_TIMEOUT_MS);
      } catch {
        addresses = [];
      }
      if (addresses.length === 0)
        return { ok: false, reason: 'unresolvable', detail: `The host ${url.hostname} does not resolve` };
    }
    if (!addresses.every(isPublicAddress))
      return {
        ok: false,
        reason: 'non-public-address',
        detail: `The host ${url.hostname} is not a public address (loopback, private, link-local and other internal ranges are refused)`,
      };
    return { ok: true, url, address: addresses[0] };
  }
}

/**
 * One POST to a checked target (webhook deliveries, Web Push messages), connected to the checked
 * `address` (null = system resolution, when the address checks are off). Never follows redirects
 * and does not read the answer's body; resolves with the status code.
 */
export function postToTarget(
  url: URL,
  address: string | null,
  headers: Record<string, string | number>,
  body: string | Buffer,
  signal: AbortSignal,
): Promise<number> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        signal,
        ...(address ? { lookup: pinnedLookup(address) as never } : {}),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A `lookup` for http(s).request that answers with the already-checked address and never asks
 * DNS again (the request keeps the host name for the Host header, SNI and the certificate).
 */
function pinnedLookup(address: string) {
  const family = ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4;
  return (
    _hostname: string,
    options: LookupOneOptions & { all?: boolean },
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

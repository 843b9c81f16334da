/**
 * The Prefer request header (RFC 7240), of which the service honours one preference:
 * `return=minimal` on game commands (the command's events and the new version instead of the
 * whole game). `return=representation` is the default. As RFC 7240 §2 requires, preferences the
 * service does not know, and malformed ones, are ignored: the answer is then the default one and
 * carries no Preference-Applied header.
 */

/** Response header naming the preferences that were applied. */
export const PREFERENCE_APPLIED_HEADER = 'preference-applied';

/** True when the Prefer header(s) ask for `return=minimal` (the last `return` preference wins). */
export function prefersMinimal(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  let minimal = false;
  for (const line of Array.isArray(header) ? header : [header]) {
    if (line.length > 1024) continue; // not a preference list anyone sends: ignored
    for (const preference of line.split(',')) {
      // token [= word] *( ";" parameter ): only the first token = value pair matters here.
      const [head] = preference.split(';');
      const eq = head.indexOf('=');
      if (eq < 0) continue;
      const name = head.slice(0, eq).trim().toLowerCase();
      let value = head.slice(eq + 1).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      if (name !== 'return') continue;
      if (value.toLowerCase() === 'minimal') minimal = true;
      else if (value.toLowerCase() === 'representation') minimal = false;
    }
  }
  return minimal;
}

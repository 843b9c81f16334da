/** An RFC 9457 problem (`application/problem+json`) as the service answers every REST error. */
export interface Problem {
  type?: string;
  title?: string;
  status: number;
  detail?: string;
  /** The stable error code (docs/api.md, docs/operations.md). */
  code: string;
  instance?: string;
  requestId?: string;
  [extension: string]: unknown;
}

/** A non-2xx answer, thrown by `unwrap` and the stream helpers. */
export class FairdiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(`${problem.status} ${problem.code}${problem.detail ? `: ${problem.detail}` : ''}`);
    this.name = 'FairdiceError';
    this.status = problem.status;
    this.code = problem.code;
    this.problem = problem;
  }
}

/** Reads a problem from a response that is not 2xx (whatever its body is). */
export async function problemOf(response: Response): Promise<Problem> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as Partial<Problem>;
    if (body && typeof body === 'object' && typeof body.code === 'string')
      return { ...body, status: response.status, code: body.code };
  } catch {
    // not JSON: described below
  }
  return {
    status: response.status,
    code: `HTTP_${response.status}`,
    detail: text.slice(0, 200) || response.statusText,
  };
}

/**
 * The data of an openapi-fetch result, or a FairdiceError with the problem:
 * `const game = unwrap(await api.POST('/v1/games', { body }))`.
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  if (result.response.ok) return undefined as T; // 204 No Content
  const body = result.error as Partial<Problem> | undefined;
  throw new FairdiceError({
    ...(body && typeof body === 'object' ? body : {}),
    status: result.response.status,
    code: typeof body?.code === 'string' ? body.code : `HTTP_${result.response.status}`,
  });
}

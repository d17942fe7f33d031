// The one way the app talks to the gateway: JSON over fetch, the session's bearer token and the workspace header, and
// the API's error body (docs/api.md "Errors") turned into an ApiError the screens can show.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

export interface Caller {
  token: string | null;
  workspaceId?: string | undefined;
}

export async function api<T>(caller: Caller, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (caller.token) headers.Authorization = `Bearer ${caller.token}`;
  if (caller.workspaceId) headers['X-Workspace-Id'] = caller.workspaceId;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  // A proxy in front of the gateway may answer an error page that is not JSON.
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    if (res.ok) throw new ApiError(res.status, 'unreadable', 'The server answered something unreadable.', null);
  }
  if (!res.ok) {
    const error = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(
      res.status,
      error?.code ?? 'unknown',
      error?.message ?? `The server answered ${res.status}.`,
      res.headers.get('X-Request-Id'),
    );
  }
  return json as T;
}

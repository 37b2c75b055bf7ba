import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Every response's policy: nothing but the server's own script, style and images runs or loads, no inline script or
 * style (model text in a page can never become code), no framing, forms post back here only.
 */
export const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The headers every response carries. */
export function securityHeaders(res: ServerResponse): void {
  res.setHeader("Content-Security-Policy", CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  // same-origin, not no-referrer: with no-referrer a browser posts `Origin: null`, which sameOrigin must refuse.
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Cache-Control", "no-store");
}

/** A random token for `--host` without YOLO_SERVE_TOKEN, and for each page's form (CSRF). */
export function newToken(): string {
  return randomBytes(24).toString("base64url");
}

/** Whether two secrets are equal, in time that does not depend on where they differ. */
export function sameSecret(a: string | null | undefined, b: string): boolean {
  if (typeof a !== "string") return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const COOKIE = "yolo_serve_token";

/**
 * Whether a request carries the server's token: `?token=` (the printed URL, which then sets the cookie), a
 * `Bearer` header, or the cookie. No token configured: every request may read (the server listens on loopback).
 */
export function tokenOf(req: IncomingMessage, url: URL): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice(7);
  const fromQuery = url.searchParams.get("token");
  if (fromQuery) return fromQuery;
  const cookie = (req.headers.cookie ?? "").split(/;\s*/).find((c) => c.startsWith(`${COOKIE}=`));
  return cookie ? decodeURIComponent(cookie.slice(COOKIE.length + 1)) : null;
}

/** The cookie that keeps the token after the printed URL was opened: HTTP-only, this site only. */
export function tokenCookie(token: string): string {
  return `${COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`;
}

/**
 * Whether a POST comes from a page of this server: its Origin (or, without one, its Referer) must be this Host. A
 * cross-site form or fetch carries the other site's origin; the per-page CSRF token is checked besides.
 */
export function sameOrigin(req: IncomingMessage): boolean {
  const host = req.headers.host;
  if (!host) return false;
  const from = req.headers.origin ?? req.headers.referer;
  if (!from) return false;
  try {
    return new URL(from).host === host;
  } catch {
    return false;
  }
}

/** Whether an address is the loopback (where the server may listen without a token). */
export function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "::1" || host === "localhost" || /^127\./.test(host);
}

/** The CSRF token of a thread's form: bound to the server's secret (new each start) and to the thread. */
export function csrfFor(secret: string, threadId: string): string {
  return createHmac("sha256", secret).update(`reply:${threadId}`).digest("base64url");
}

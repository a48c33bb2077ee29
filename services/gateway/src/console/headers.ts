import type { RequestHandler } from 'express';

/**
 * The console's Content-Security-Policy: scripts, styles and images only from the gateway's
 * own origin (no inline script or style anywhere), forms only to it, never framed.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Every console answer: the CSP and its companions. */
export const consoleHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Not no-referrer: under it browsers send `Origin: null` on form posts, which the CSRF check refuses.
  res.setHeader('Referrer-Policy', 'same-origin');
  next();
};

/** Pages carry an operator's data (and once, a key's secret): nothing between may keep them. */
export const privatePages: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** The `userInfo` cookie (SPEC §3: e-mail and paymentCount), or null when absent or unreadable. */
export function readUserInfo(): { email: string } | null {
  const raw = document.cookie
    .split('; ')
    .find((c) => c.startsWith('userInfo='))
    ?.slice('userInfo='.length);
  if (!raw) return null;
  try {
    const info = JSON.parse(decodeURIComponent(raw)) as { email?: unknown };
    return typeof info.email === 'string' ? { email: info.email } : null;
  } catch {
    return null;
  }
}

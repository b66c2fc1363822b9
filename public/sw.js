// The service worker of the subscriber's dashboard (registered by components/dashboard/push-toggle.tsx when the user
// turns notifications on). It only shows the buyer's alerts (W3C Push API and Notifications API) and opens the map on a
// tap; it caches nothing, so no page is ever shown from a stale copy. Payload: { title, body, url, tag } from
// server/services/locate/buyer-alerts.ts.
self.addEventListener('push', (event) => {
  let alert = {};
  try {
    alert = event.data ? event.data.json() : {};
  } catch {
    alert = { title: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(alert.title || self.location.hostname, {
      body: alert.body || '',
      tag: alert.tag,
      renotify: Boolean(alert.tag),
      icon: '/app-icons/icon-192.png',
      data: { url: alert.url },
    }),
  );
});

// A tap opens the request's map on this site (an open tab of it is focused instead); nothing outside this origin.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const given = event.notification.data && event.notification.data.url;
  let target = new URL('/dashboard/locations/', self.location.origin);
  try {
    const url = new URL(given, self.location.origin);
    target = new URL(url.pathname + url.search, self.location.origin);
  } catch {
    // keep the dashboard
  }
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => w.url === target.href);
      if (open) return open.focus();
      return self.clients.openWindow(target.href);
    })(),
  );
});

// A push service that renews a subscription (Firefox) hands the new one here: it is registered for the signed-in
// subscriber as the dashboard would (the session cookie goes with a same-origin fetch).
self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(
    (async () => {
      const renewed =
        event.newSubscription ||
        (event.oldSubscription && (await self.registration.pushManager.subscribe(event.oldSubscription.options)));
      if (!renewed) return;
      const { endpoint, keys } = renewed.toJSON();
      await fetch('/api_f/v1/push/subscriptions', {
        method: 'POST',
        headers: { website_type: '7', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ endpoint, p256dh: keys.p256dh, auth: keys.auth }),
      });
    })(),
  );
});

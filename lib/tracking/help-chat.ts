/**
 * The help-desk chat (docs/rules.md#api) behind one small adapter, chosen by NEXT_PUBLIC_HELP_CHAT: `none`
 * (default: nothing is loaded) or `crisp` (Crisp, NEXT_PUBLIC_CRISP_WEBSITE_ID). The widget is told whether the
 * visitor is signed in or anonymous, gets the e-mail as an attribute and the transaction info of
 * `GET /other/user/property` as session data.
 */

/** Who the chat is talking to. `property`: the transaction info (flat strings/numbers) for a signed-in visitor. */
export type HelpChatIdentity = {
  signedIn: boolean;
  email?: string;
  property?: Record<string, string | number | boolean | null>;
};

/** A help-desk widget. `load` adds its script once; `identify` may be called before the script has run. */
export type HelpChatAdapter = { name: string; load(): void; identify(who: HelpChatIdentity): void };

type CrispWindow = { $crisp?: unknown[][]; CRISP_WEBSITE_ID?: string };

/**
 * Crisp through its documented command queue (`window.$crisp.push([...])`, Crisp "JavaScript SDK" docs): commands
 * pushed before `l.js` loads run when it does. Segment `signed-in` or `anonymous`, `user:email`, and the
 * transaction info as `session:data` key/value pairs.
 */
export function crispAdapter(websiteId: string, win: CrispWindow = window as CrispWindow): HelpChatAdapter {
  return {
    name: 'crisp',
    load() {
      if (win.CRISP_WEBSITE_ID) return;
      win.$crisp = win.$crisp ?? [];
      win.CRISP_WEBSITE_ID = websiteId;
      const script = document.createElement('script');
      script.src = 'https://client.crisp.chat/l.js';
      script.async = true;
      document.head.appendChild(script);
    },
    identify(who) {
      const queue = (win.$crisp = win.$crisp ?? []);
      queue.push(['set', 'session:segments', [[who.signedIn ? 'signed-in' : 'anonymous']]]);
      if (who.email) queue.push(['set', 'user:email', [who.email]]);
      const data = Object.entries(who.property ?? {})
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, String(v)]);
      if (data.length) queue.push(['set', 'session:data', [data]]);
    },
  };
}

/** The adapter for a setting, or null for `none`, an unknown name or a missing id. */
export function helpChatAdapter(
  name: string | undefined,
  settings: { crispWebsiteId?: string },
  win?: CrispWindow,
): HelpChatAdapter | null {
  if (name === 'crisp' && settings.crispWebsiteId) return crispAdapter(settings.crispWebsiteId, win);
  return null;
}

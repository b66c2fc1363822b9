import { describe, expect, it } from 'vitest';
import { buttonOs, detectEnv, detectWebp, phoneOs, postToNative } from '@/lib/tracking/device';
import { crispAdapter, helpChatAdapter } from '@/lib/tracking/help-chat';
import {
  STORAGE_KEYS,
  captureTracking,
  gaClientId,
  isEventToken,
  newEventToken,
  readTracking,
  type KeyValueStore,
} from '@/lib/tracking/state';

/** A fresh local-storage stand-in. */
function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

/** Real user-agent strings, as these browsers send them. */
const UA = {
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.113 Mobile Safari/537.36',
  iosSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  iosChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
  facebookIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/458.0.0.37.97;FBBV/577038716;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.4;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/0]',
  facebookAndroid:
    'Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.118 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/458.0.0.42.108;]',
  instagram:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 320.0.2.23.105 (iPhone14,5; iOS 17_3_1; en_US; en; scale=3.00; 1170x2532; 567186358)',
  wechat:
    'Mozilla/5.0 (Linux; Android 12; V2134A Build/SP1A.210812.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/86.0.4240.99 XWEB/4317 MMWEBSDK/20220903 Mobile Safari/537.36 MMWEBID/2090 MicroMessenger/8.0.28.2240(0x28001C57) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  qq: 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 QQ/8.9.78.605 V1_IPH_SQ_8.9.78_1_APP_A Pixel/1170 Core/WKWebView Device/Apple(iPhone 13) NetType/WIFI QBWebViewType/1 WKType/1',
  desktopChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
};

describe('browser tracking state (docs/rules.md#entities)', () => {
  it('makes a 64-hex event token from 32 random bytes', () => {
    const token = newEventToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(newEventToken()).not.toBe(token);
    expect(newEventToken((b) => b.fill(255))).toBe('f'.repeat(64));
    expect(isEventToken('abc')).toBe(false);
  });

  it('creates the token and uuid on the first visit and keeps them afterwards', () => {
    const store = memoryStore();
    const first = captureTracking('', store);
    expect(first.eventToken).toMatch(/^[0-9a-f]{64}$/);
    expect(first.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const second = captureTracking('?gclid=x', store);
    expect(second.eventToken).toBe(first.eventToken);
    expect(second.uuid).toBe(first.uuid);
  });

  it('stores the tracked parameters under their SPEC names, defaulting channel to SEO', () => {
    const store = memoryStore();
    expect(captureTracking('', store).channel).toBe('SEO');
    const state = captureTracking(
      '?utm_term=phone&utm_medium=cpc&methods=card&gclid=abc&wbraid=w1&channel=GADS&package=com.example',
      store,
    );
    expect(state).toMatchObject({
      keyword: 'phone',
      hmci: 'cpc',
      globalMethod: 'card',
      gclid: 'abc',
      wbraid: 'w1',
      channel: 'GADS',
      isPackage: true,
    });
    expect(store.data.get(STORAGE_KEYS.keyword)).toBe('phone');
    expect(store.data.get('global_method')).toBe('card');
  });

  it('keeps stored values when a later address lacks them and replaces them when it has them (last touch)', () => {
    const store = memoryStore();
    captureTracking('?gclid=first&utm_term=phone', store);
    expect(captureTracking('?utm_source=x', store)).toMatchObject({ gclid: 'first', keyword: 'phone' });
    expect(captureTracking('?gclid=second', store).gclid).toBe('second');
    expect(captureTracking('?keyword=tracker', store).keyword).toBe('tracker');
    expect(captureTracking('?utm_term=a&keyword=b', store).keyword).toBe('a');
  });

  it('cuts an overlong value instead of failing', () => {
    const store = memoryStore();
    expect(captureTracking(`?gclid=${'g'.repeat(500)}`, store).gclid).toHaveLength(200);
  });

  it('reads the cookies lang, acceptCookie, website_type and the GA client id', () => {
    const store = memoryStore();
    const cookies = {
      lang: 'es',
      acceptCookie: '1',
      _ga: 'GA1.1.1234567890.1699999999',
      userInfo: '{"email":"a@b.c"}',
    };
    expect(readTracking(store, cookies)).toMatchObject({
      lang: 'es',
      acceptCookie: true,
      websiteType: 7,
      gaCid: '1234567890.1699999999',
    });
    expect(readTracking(store, { acceptCookie: '0' }).acceptCookie).toBe(false);
    expect(readTracking(store, {}).acceptCookie).toBeUndefined();
    expect(readTracking(store, { acceptCookie: 'yes' }).acceptCookie).toBeUndefined();
    expect(gaClientId('GA1.2.55.66')).toBe('55.66');
    expect(gaClientId('garbage')).toBeUndefined();
  });
});

describe('environment detection (docs/rules.md#states) with real user agents', () => {
  it.each([
    ['androidChrome', { android: true, ios: false, mobile: true, inApp: false, wechat: false, qq: false }],
    ['iosSafari', { android: false, ios: true, mobile: true, inApp: false }],
    ['iosChrome', { ios: true, inApp: false }],
    ['facebookIos', { ios: true, mobile: true, inApp: true }],
    ['facebookAndroid', { android: true, mobile: true, inApp: true }],
    ['instagram', { ios: true, mobile: true, inApp: true }],
    ['wechat', { android: true, wechat: true, inApp: true, qq: false }],
    ['qq', { ios: true, qq: true, inApp: true, wechat: false }],
    ['desktopChrome', { android: false, ios: false, mobile: false, inApp: false }],
  ] as const)('%s', (name, expected) => {
    expect(detectEnv(UA[name])).toMatchObject(expected);
  });

  it('treats our app (the package flag) as in-app', () => {
    expect(detectEnv(UA.androidChrome, true).inApp).toBe(true);
  });

  it('gives phone_os 3 on mobile and 2 on desktop; button os 2 desktop, 1 iOS, 0 other mobile', () => {
    expect(phoneOs(detectEnv(UA.iosSafari))).toBe(3);
    expect(phoneOs(detectEnv(UA.desktopChrome))).toBe(2);
    expect(buttonOs(detectEnv(UA.desktopChrome))).toBe(2);
    expect(buttonOs(detectEnv(UA.iosSafari))).toBe(1);
    expect(buttonOs(detectEnv(UA.androidChrome))).toBe(0);
    expect(buttonOs(detectEnv(UA.wechat))).toBe(0);
  });
});

describe('native bridge (docs/rules.md#states)', () => {
  const names = { ios: 'N8WebView', android: 'AndroidBridge' };

  it('posts the object to the iOS message handler', () => {
    const got: unknown[] = [];
    const win = { webkit: { messageHandlers: { N8WebView: { postMessage: (m: unknown) => got.push(m) } } } };
    expect(postToNative({ type: 'event', eventCode: 'paid' }, win, names)).toBe('ios');
    expect(got).toEqual([{ type: 'event', eventCode: 'paid' }]);
  });

  it('posts JSON to the Android bridge', () => {
    const got: string[] = [];
    const win = { AndroidBridge: { postMessage: (m: string) => got.push(m) } };
    expect(postToNative({ type: 'event' }, win, names)).toBe('android');
    expect(JSON.parse(got[0]!)).toEqual({ type: 'event' });
  });

  it('does nothing outside the app, and a throwing bridge does not throw', () => {
    expect(postToNative({ a: 1 }, {}, names)).toBeNull();
    const broken = {
      webkit: {
        messageHandlers: {
          N8WebView: {
            postMessage: () => {
              throw new Error('gone');
            },
          },
        },
      },
    };
    const error = console.error;
    console.error = () => {};
    try {
      expect(postToNative({ a: 1 }, broken, names)).toBeNull();
    } finally {
      console.error = error;
    }
  });
});

describe('WebP detection (docs/rules.md#states)', () => {
  it('probes once and stores the answer', () => {
    const store = memoryStore();
    let probes = 0;
    const canvas = (url: string) => () => {
      probes += 1;
      return { width: 0, height: 0, toDataURL: () => url };
    };
    expect(detectWebp(store, canvas('data:image/webp;base64,UklGR'))).toBe(true);
    expect(store.data.get('webp')).toBe('1');
    expect(detectWebp(store, canvas('data:image/png;base64,x'))).toBe(true);
    expect(probes).toBe(1);
    expect(detectWebp(memoryStore(), canvas('data:image/png;base64,x'))).toBe(false);
  });
});

describe('help chat adapter (docs/rules.md#api)', () => {
  it('is off by default and for unknown names', () => {
    expect(helpChatAdapter(undefined, {})).toBeNull();
    expect(helpChatAdapter('none', { crispWebsiteId: 'x' })).toBeNull();
    expect(helpChatAdapter('crisp', {})).toBeNull();
  });

  it('tells Crisp signed-in or anonymous, the e-mail and the transaction info', () => {
    const win: { $crisp?: unknown[][] } = {};
    const chat = crispAdapter('site-1', win);
    chat.identify({
      signedIn: true,
      email: 'buyer@example.com',
      property: { paymentCount: 2, subscriptionStatus: 'active', lastOrder: null },
    });
    expect(win.$crisp).toEqual([
      ['set', 'session:segments', [['signed-in']]],
      ['set', 'user:email', ['buyer@example.com']],
      [
        'set',
        'session:data',
        [
          [
            ['paymentCount', '2'],
            ['subscriptionStatus', 'active'],
          ],
        ],
      ],
    ]);
    const anonymous: { $crisp?: unknown[][] } = {};
    crispAdapter('site-1', anonymous).identify({ signedIn: false });
    expect(anonymous.$crisp).toEqual([['set', 'session:segments', [['anonymous']]]]);
  });
});

/** Tracking parameters carried over by redirects and in-app links (docs/rules.md#routes). */
export const TRACKING_PARAMS = [
  'utm_source',
  'utm_term',
  'gclid',
  'wbraid',
  'gbraid',
  'campaignid',
  'adgroupid',
  'feeditemid',
  'targetid',
  'device',
  'creative',
  'keyword',
  'channel',
  'fbclid',
  'ttclid',
] as const;

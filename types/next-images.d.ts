// Static image imports (`import shot from '@/public/demo/map.png'`) for the type check, which CI runs before
// `next build` writes next-env.d.ts (git-ignored).
/// <reference types="next/image-types/global" />

import { OwnerHeader } from '@/components/share/owner-shell';
import { site } from '@/lib/site';

/** The `@header` slot on the consent page `/location/`: the product's name only (components/share/owner-shell.tsx). */
export default function ConsentHeader() {
  return <OwnerHeader product={site.product} />;
}

import { SandboxWallet } from '@/components/payment/sandbox-wallet';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/checkout/wallet?order=CODE`: the sandbox wallet the payer is redirected to (approve or cancel). */
export default clientPage(SandboxWallet, ['Checkout']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('wallet');

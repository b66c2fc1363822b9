import { SandboxWallet } from '@/components/payment/sandbox-wallet';
import { clientPage } from '@/components/ui/client-page';

/** `/checkout/wallet?order=CODE`: the sandbox wallet the payer is redirected to (approve or cancel). */
export default clientPage(SandboxWallet, ['Checkout']);

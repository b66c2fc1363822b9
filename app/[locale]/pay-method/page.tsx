import { legalRoute } from '@/components/site/legal-page';

/** `/pay-method` (docs/rules.md#routes): card and wallet. Static per locale; text in messages `Legal.payMethod`. */
const route = legalRoute('payMethod', '/pay-method/');

export default route.Page;
export const generateMetadata = route.generateMetadata;

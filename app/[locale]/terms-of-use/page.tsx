import { legalRoute } from '@/components/site/legal-page';

/**
 * `/terms-of-use` (docs/rules.md#routes): 18+ only, allowed use, subscription, cancellation, refunds (#refund), the right of
 * withdrawal and where its function is (#withdrawal; Directive 2011/83/EU Art. 11a), complaints. Static per locale;
 * text in messages `Legal.termsOfUse`.
 */
const route = legalRoute('termsOfUse', '/terms-of-use/', { 5: 'refund', 6: 'withdrawal' });

export default route.Page;
export const generateMetadata = route.generateMetadata;

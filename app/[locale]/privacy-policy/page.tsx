import { legalRoute } from '@/components/site/legal-page';

/** `/privacy-policy` (docs/rules.md#routes): what is collected, why, for how long, and rights. Static per locale; text in messages `Legal.privacyPolicy`. */
const route = legalRoute('privacyPolicy', '/privacy-policy/');

export default route.Page;
export const generateMetadata = route.generateMetadata;

/** Public site settings (ARCHITECTURE §3: the product's name is a setting, with a demo default). */
export const site = {
  product: process.env.NEXT_PUBLIC_PRODUCT_NAME || 'Chamspy',
  company: process.env.NEXT_PUBLIC_COMPANY_NAME || 'Demo Company Limited',
};

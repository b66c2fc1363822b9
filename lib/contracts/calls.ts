import type { z } from 'zod';
import {
  changePasswordBody,
  loginBody,
  messageOnlySchema,
  registeredSchema,
  resetPasswordBody,
  undeliveredEmailsSchema,
  userInfoSchema,
} from './account';
import {
  billingViewSchema,
  cancelLinkSchema,
  cancelResultSchema,
  cancelTokenSchema,
  consentReceiptsSchema,
  linkRequestBody,
  linkSentSchema,
  orderCodeBody,
  refundInfoSchema,
  refundResultSchema,
  userPropertySchema,
} from './billing';
import { answerBody, consentAnswerSchema, consentViewSchema, presenceAnswerSchema } from './consent';
import { contactBody } from './contact';
import { dataLeakReportSchema } from './data-leaks';
import {
  locationTraceSchema,
  moreTimeAskSchema,
  newRequestBody,
  newRequestSchema,
  notificationsSeenSchema,
  peopleSchema,
  refreshAskedSchema,
  renewLinkBody,
  renewedLinkSchema,
  requestPageQuery,
  requestPageSchema,
  smsTextsSchema,
} from './locations';
import { ipInfoSchema, phoneInfoQuery, phoneInfoSchema } from './lookups';
import {
  createdOrderSchema,
  embeddedCheckoutSchema,
  offerBody,
  offerViewSchema,
  orderBody,
  orderViewSchema,
  pricePlanSchema,
  priceQuery,
  sandboxApproveBody,
  sandboxPaidSchema,
} from './orders';
import { outboxMessagesSchema } from './outbox';
import { placeLabelsQuery, placeLabelsSchema } from './places';
import { pushEndpointQuery, pushKeyView, pushStateView, pushSubscriptionBody } from './push';
import {
  codeEntryBody,
  consentEntryBody,
  safetyActionBody,
  safetyActionResultSchema,
  safetyCodeBody,
  safetySessionSchema,
} from './safety';
import { startedLookupSchema, startLookupBody, usernameLookupSchema } from './username-lookup';
import {
  accountConfirmBody,
  acknowledgementSchema,
  contractsSchema,
  linkConfirmBody,
  withdrawLinkSchema,
} from './withdraw';

/**
 * Every call the site's pages make to the API (docs/decisions/0010-one-contract-per-payload.md), keyed by method and
 * path as the routes declare them under `/api_f/v1` (`{name}` a path parameter): its `answer` (the envelope's `obj`,
 * or `page` for a paged list) and, when it takes one, its `body` (form-encoded) or `query`, each the schema the route
 * validates and documents with, never a copy. The browser's client types a call by its key (lib/api/client.ts `call`,
 * components/ui/use-public-api.ts) through `import type` only, so no page loads zod for it;
 * tests/api-calls-contract.test.ts checks that each key is a route of the API with that method and that the route
 * documents this answer and these fields. The operator console's calls are lib/contracts/ops.ts's.
 *
 * A call without `body` here sends none, or one whose schema the route keeps to itself: the owner page's presence
 * signal (its states are server/services/locate's) and the sandbox card form (checked with the server's Luhn rule);
 * its body is then any form fields. `GET /other/ipInfo`'s `ip` is checked with Node's `isIP` and is likewise free.
 */
export const API_CALLS = {
  // Lookups and the free tools (components/locate, components/site, components/safety).
  'GET /other/ipInfo': { answer: ipInfoSchema },
  'GET /other/location/info/{phone}': { query: phoneInfoQuery, answer: phoneInfoSchema },
  'GET /other/places': { query: placeLabelsQuery, answer: placeLabelsSchema },
  'GET /other/user/property': { answer: userPropertySchema },
  'POST /other/contact': { body: contactBody, answer: linkSentSchema },
  'POST /usernameLookup': { body: startLookupBody, answer: startedLookupSchema },
  'GET /usernameLookup/{id}': { answer: usernameLookupSchema },
  'POST /usernameLookup/{id}/stop': { answer: usernameLookupSchema },
  // Buying (components/site's price card, components/locate, components/payment).
  'GET /portal/priceSetup': { query: priceQuery, answer: pricePlanSchema },
  'POST /portal/priceSetup/offer': { body: offerBody, answer: offerViewSchema },
  'POST /portal/order': { body: orderBody, answer: createdOrderSchema },
  'GET /portal/order/{code}': { answer: orderViewSchema },
  'GET /portal/order/{code}/embeddedCheckout': { answer: embeddedCheckoutSchema },
  'GET /portal/user/checkRegister/{code}': { answer: orderViewSchema },
  'GET /portal/user/checkEmail/{email}': { answer: registeredSchema },
  'POST /portal/order/{code}/sandboxPay': { answer: sandboxPaidSchema },
  'POST /portal/order/{code}/sandbox3ds': { body: sandboxApproveBody, answer: sandboxPaidSchema },
  'POST /portal/order/{code}/sandboxWallet': { body: sandboxApproveBody, answer: sandboxPaidSchema },
  // The account (components/account).
  'POST /admin/userSession': { body: loginBody, answer: userInfoSchema },
  'DELETE /admin/userSession': { answer: messageOnlySchema },
  'GET /admin/userSession/current': { answer: userInfoSchema },
  'GET /admin/userSession/forgetPassword/{email}': { answer: messageOnlySchema },
  'PUT /admin/userSession/forgetPassword/{email}': { body: resetPasswordBody, answer: userInfoSchema },
  'PUT /admin/userSession/restPassword/{email}': { answer: messageOnlySchema },
  'GET /admin/user/undeliveredEmails': { answer: undeliveredEmailsSchema },
  'PUT /admin/user/password': { body: changePasswordBody, answer: messageOnlySchema },
  'GET /admin/user/consentReceipts': { answer: consentReceiptsSchema },
  'GET /account/dataLeaks': { answer: dataLeakReportSchema },
  // Billing: cancel, withdraw, refund (components/billing, components/dashboard).
  'GET /admin/order/status': { answer: billingViewSchema },
  'POST /admin/order/refundDetail': { body: orderCodeBody, answer: refundInfoSchema },
  'POST /admin/order/refund': { body: orderCodeBody, answer: refundResultSchema },
  'PUT /admin/user/cancelSubscribe': { answer: cancelResultSchema },
  'POST /portal/cancel/request': { body: linkRequestBody, answer: linkSentSchema },
  'GET /portal/cancel/link/{token}': { answer: cancelLinkSchema },
  'POST /portal/cancel/confirm': { body: cancelTokenSchema, answer: cancelResultSchema },
  'POST /portal/withdraw/request': { body: linkRequestBody, answer: linkSentSchema },
  'GET /portal/withdraw/link/{token}': { answer: withdrawLinkSchema },
  'POST /portal/withdraw/confirm': { body: linkConfirmBody, answer: acknowledgementSchema },
  'GET /admin/withdraw/contracts': { answer: contractsSchema },
  'POST /admin/withdraw/confirm': { body: accountConfirmBody, answer: acknowledgementSchema },
  // The buyer's requests and maps (components/dashboard).
  'GET /spyContent': { query: requestPageQuery, answer: requestPageSchema },
  'POST /spyContent/notifications/seen': { answer: notificationsSeenSchema },
  'POST /spyContent/phoneLocation': { body: newRequestBody, answer: newRequestSchema },
  'POST /spyContent/phoneLocation/{id}/link': { body: renewLinkBody, answer: renewedLinkSchema },
  'GET /multilingualWord/one/3/phone_text': { answer: smsTextsSchema },
  'GET /gpsTrace/phoneLocation/{id}': { answer: locationTraceSchema },
  'POST /gpsTrace/phoneLocation/{id}/more-time': { answer: moreTimeAskSchema },
  'POST /gpsTrace/phoneLocation/{id}/refresh': { answer: refreshAskedSchema },
  'GET /gpsTrace/people': { answer: peopleSchema },
  'GET /push/key': { answer: pushKeyView },
  'GET /push/subscriptions': { query: pushEndpointQuery, answer: pushStateView },
  'POST /push/subscriptions': { body: pushSubscriptionBody, answer: pushStateView },
  'DELETE /push/subscriptions': { query: pushEndpointQuery, answer: pushStateView },
  'GET /dev/outbox': { answer: outboxMessagesSchema },
  // The owner's consent page (components/share).
  'GET /spyContent/consent/{id}': { answer: consentViewSchema },
  'PUT /spyContent/phoneLocation/{id}': { body: answerBody, answer: consentAnswerSchema },
  'POST /spyContent/phoneLocation/{id}/presence': { answer: presenceAnswerSchema },
  // The safety centre (components/safety).
  'POST /safety/session/consent': { body: consentEntryBody, answer: safetySessionSchema },
  'POST /safety/code': { body: safetyCodeBody, answer: linkSentSchema },
  'POST /safety/session': { body: codeEntryBody, answer: safetySessionSchema },
  'POST /safety/actions': { body: safetyActionBody, answer: safetyActionResultSchema },
} as const;

/** A call of the site's pages: `METHOD /path` as API_CALLS keys it. */
export type ApiCall = keyof typeof API_CALLS;

/** A call made with GET, the only kind the light `fetch` transport of the public pages makes. */
export type ApiGetCall = Extract<ApiCall, `GET ${string}`>;

/** The answer (the envelope's `obj`, or `page`) of each call, as its schema gives it. */
export type ApiAnswers = { [K in ApiCall]: z.infer<(typeof API_CALLS)[K]['answer']> };

/** The names of a path's `{name}` parameters: `'GET /a/{id}/b/{code}'` → `'id' | 'code'`. */
type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest> : never;

/** Form fields of a body or query the contract leaves to the route (see API_CALLS); values are sent as strings. */
export type FormFields = Record<string, string | number | boolean | undefined>;

/** The schema-typed part `P` (`body` or `query`) of call `K`: what the schema takes (`z.input`), else free fields. */
type PartOf<K extends ApiCall, P extends 'body' | 'query'> =
  (typeof API_CALLS)[K] extends Record<P, z.ZodType> ? z.input<(typeof API_CALLS)[K][P]> : FormFields;

/**
 * What a call takes besides its key: `params`, each `{name}` of the path (required when the path has one, sent
 * %-encoded); `query` of a GET or DELETE and `body` of the others (the contract's input types, lib/contracts); `whole`
 * (`W`) resolves to the whole success envelope rather than its payload, to read its `msg`; `headers` are added to
 * this request (the operation log's, docs/rules.md#entities).
 */
export type ApiCallOptions<K extends ApiCall, W extends boolean = boolean> = ([ParamNames<K>] extends [never]
  ? { params?: undefined }
  : { params: Record<ParamNames<K>, string> }) & {
  query?: K extends `${'GET' | 'DELETE'} ${string}` ? PartOf<K, 'query'> : undefined;
  body?: K extends `${'GET' | 'DELETE'} ${string}` ? undefined : PartOf<K, 'body'>;
  whole?: W;
  headers?: Record<string, string>;
};

/** The arguments after a call's key: its options, which may be left out when nothing in them is required. */
export type ApiCallArgs<K extends ApiCall, W extends boolean = false> = [ParamNames<K>] extends [never]
  ? [options?: ApiCallOptions<K, W>]
  : [options: ApiCallOptions<K, W>];

/** What a call resolves to: its answer, or with `whole: true` the success envelope around it. */
export type ApiResult<K extends ApiCall, W extends boolean> = W extends true
  ? { success: 1; msg: string; obj: ApiAnswers[K] }
  : ApiAnswers[K];

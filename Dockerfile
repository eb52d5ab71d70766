# syntax=docker/dockerfile:1
# The production image: the compiled API and the built web app on Node.js, nothing else. Four stages:
# manifests (the workspaces' package files, so a change of source alone reuses both installs' layers),
# build (every dependency, `npm run build`), deps (the API's runtime dependencies only) and the runtime image,
# which runs as the unprivileged `node` user. See docs/operations.md (Deploying with Docker).

FROM node:24-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/

FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM manifests AS deps
# The API's runtime dependencies only (PGlite, sharp's and argon2's prebuilt natives for this platform, the AWS
# SDK…); @terrafund/contracts is compiled into apps/api/dist, so its link in node_modules is not needed.
RUN npm ci --omit=dev --workspace @terrafund/api --no-audit --no-fund \
  && rm -rf node_modules/@terrafund

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/var/lib/terrafund \
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
WORKDIR /app
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/apps/api/package.json apps/api/
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/api/drizzle apps/api/drizzle
COPY --from=build /app/apps/api/assets apps/api/assets
COPY --from=build /app/apps/web/dist apps/web/dist
RUN mkdir -p /var/lib/terrafund && chown node:node /var/lib/terrafund
USER node
EXPOSE 3000
# Readiness: 200 only when the database (and Redis and the bucket, when configured) answer.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: stop accepting, answer what is in flight, close keep-alive connections, exit 0 within 10 s.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "apps/api/dist/server.js"]

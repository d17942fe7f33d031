# syntax=docker/dockerfile:1
# One image per deployable package, all from this file:
#   docker build --build-arg PACKAGE=<name> --target runtime -t wms-<name> .
# where <name> is gateway, identity, workspace, messaging, asset or realtime. `--target dev` builds the image Tilt's
# live update runs (the sources through tsx). test/delivery/deploy.test.ts runs the build and web stages' steps and
# starts what they produce with the runtime stage's command.

# Global, so that the last stage can pick the package's ports stage.
ARG PACKAGE

FROM node:20-bookworm-slim AS base
# tini as PID 1: hands SIGTERM to node (whose handler drains and stops in order) and reaps orphans.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 10001 wms \
 && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin wms

FROM base AS deps
# pnpm at the version package.json pins (packageManager), through corepack.
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0
RUN corepack enable pnpm
WORKDIR /repo
# The lockfile alone decides what is downloaded, so this layer stays cached until the dependencies change.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline

FROM deps AS build
# Every deployable package compiled to JavaScript, each into its dist/ (one tsc run for all, a few seconds; the same
# layer for every image).
RUN pnpm build
ARG PACKAGE
# The package's built files and production dependencies in /out. --legacy: this workspace links its packages rather
# than injecting copies of them (inject-workspace-packages), so that development runs on the live sources. pnpm deploy
# leaves each package.json as it is (pnpm/pnpm#6693): the script applies publishConfig, pointing the deployed
# workspace packages' exports at their dist/.
RUN pnpm --filter "@wms/${PACKAGE}" --fail-if-no-match --prod deploy --legacy /out \
 && node --import tsx scripts/apply-publish-config.ts /out

# The reference web client (web/dist), which only the gateway's image holds. A stage of its own beside the build:
# BuildKit builds a stage only for a target that copies from it, so the services' images neither wait for it nor hold it.
FROM deps AS web
RUN pnpm build:web

# Tilt's live update: every dependency and the sources, run through tsx, so that syncing changed sources is enough.
# The checkout is at /repo, laid out as the repository (sync to /repo/<path>); /app links to the package's folder.
# The workspace packages belong to the runtime user, so that a sync can write to them.
FROM deps AS dev
ARG PACKAGE
RUN ln -s "$(pnpm --filter "@wms/${PACKAGE}" --fail-if-no-match exec pwd)" /app \
 && chown -R 10001:10001 /repo/protos /repo/services /repo/gateway
WORKDIR /app
USER 10001:10001
ENTRYPOINT ["/usr/bin/tini", "--"]
# Servers and workers restart when a module they imported changes (node --watch); the migrate role runs once and
# exits, as its Job must (under --watch it would wait for changes instead).
CMD ["sh", "-c", "if [ \"$ROLE\" = migrate ]; then exec node --import tsx src/main.ts; else exec node --watch --import tsx src/main.ts; fi"]

# A production container: node, tini and the deploy output; nothing that compiles or installs.
FROM base AS runtime-base
ENV NODE_ENV=production
WORKDIR /app
# Owned by root, so the process cannot change its own code; it writes only to /tmp.
COPY --from=build /out /app
USER 10001:10001
ENTRYPOINT ["/usr/bin/tini", "--"]
# A service process's role comes from ROLE (server, worker or migrate); the gateway has only one.
CMD ["node", "dist/src/main.js"]

# The ports each package listens on: the gateway's PORT (its /metrics too); a service's GRPC_PORT and METRICS_PORT
# defaults from protos/src/topology.ts (test/delivery checks that they agree). The gateway serves the web client at
# /app/ from ../../web/dist beside its dist/src/web-app.js, which is /app/web/dist (owned by root, as the rest).
FROM runtime-base AS ports-gateway
EXPOSE 8080
COPY --from=web /repo/web/dist /app/web/dist
FROM runtime-base AS ports-identity
EXPOSE 50051 9461
FROM runtime-base AS ports-workspace
EXPOSE 50052 9462
FROM runtime-base AS ports-messaging
EXPOSE 50053 9463
FROM runtime-base AS ports-asset
EXPOSE 50054 9464
FROM runtime-base AS ports-realtime
EXPOSE 50055 9465

FROM ports-${PACKAGE} AS runtime

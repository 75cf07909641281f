# One image for every hopscope service; docker-compose.yml picks the app with `command`.
# Built from the repository alone: `npm ci` from the committed lock file, then `npm run build`: the apps
# bundled into their dist/ folders (each service runs as plain `node apps/<app>/dist/main.js`) and the UI.
FROM node:20-bookworm-slim AS base
WORKDIR /app
# better-sqlite3 builds its native addon at install time.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY shared/package.json shared/package.json
COPY nodekit/package.json nodekit/package.json
COPY apps/mcp-server/package.json apps/mcp-server/package.json
COPY apps/host/package.json apps/host/package.json
COPY apps/model-sim/package.json apps/model-sim/package.json
COPY apps/proxy/package.json apps/proxy/package.json
COPY apps/web/package.json apps/web/package.json
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# Inside a container the services must listen on every interface so the others (and the host) reach them.
ENV HOST=0.0.0.0 NODE_ENV=production

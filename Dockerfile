# Referee: the Discord bot.  The database lives on a volume so games survive a new image.
#
#   docker build -t referee .
#   docker run -d --name referee -e DISCORD_TOKEN=… -v referee-data:/data \
#       --stop-timeout 30 referee
#
# The base image is pinned by digest (a tag moves; a digest does not).  To move to a newer
# Python 3.11 patch release: `docker buildx imagetools inspect python:3.11-slim-bookworm`,
# put its digest here, rebuild, run the tests.
FROM python:3.11-slim-bookworm@sha256:2e32f7d302adc1c37428355c1e646897c0c53f4fd60b6a551245fb90ee129f91

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    REFEREE_DB=/data/referee.sqlite3 \
    REFEREE_SNAPSHOT_DIR=/data/snapshots \
    REFEREE_SEED_KEY_FILE=/data/referee.seed-key \
    REFEREE_HEARTBEAT=/tmp/referee-heartbeat.json

WORKDIR /app
# The pinned dependencies first (their layer is rebuilt only when the lock changes), every
# file checked against its hash; then the project itself, without resolving anything again.
COPY requirements.lock ./
RUN pip install --require-hashes --no-deps -r requirements.lock
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY rules ./rules
COPY render ./render
COPY migrations ./migrations
RUN pip install --no-deps . \
    && useradd --create-home --uid 10001 referee \
    && mkdir -p /data \
    && chown referee:referee /data

USER referee
VOLUME ["/data"]

# Healthy: the bot's heartbeat (REFEREE_HEARTBEAT, rewritten every 15 s) is under a minute
# old, says every shard is connected to the gateway and the database answered.  Reading a
# file: no side effect, as a health check should be.  (No --start-interval: Docker Engine
# before 25.0 refuses it; the 60 s start period covers the login and the command sync.)
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 \
    CMD ["referee", "health"]

# SIGTERM (docker stop): commands in flight finish (up to 10 s), then the gateway, then the
# database close.  Give it more than Docker's default 10 s: --stop-timeout 30 (compose:
# stop_grace_period).
STOPSIGNAL SIGTERM
CMD ["referee", "bot"]

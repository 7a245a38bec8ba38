# Referee: the Discord bot.  The database lives on a volume so games survive a new image.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    REFEREE_DB=/data/referee.sqlite3 \
    REFEREE_SNAPSHOT_DIR=/data/snapshots

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY rules ./rules
COPY render ./render
COPY migrations ./migrations
RUN pip install . \
    && useradd --create-home --uid 10001 referee \
    && mkdir -p /data \
    && chown referee:referee /data

USER referee
VOLUME ["/data"]

# The database opens and is migrated: the bot process can work.
HEALTHCHECK --interval=60s --timeout=10s --start-period=20s --retries=3 \
    CMD ["referee", "health"]

# SIGTERM (docker stop) closes the bot and the database cleanly.
STOPSIGNAL SIGTERM
CMD ["referee", "bot"]

# The Raptor bot as a container image.
#
#   docker build -t raptor-bot .
#   docker run -d --name raptor -e DISCORD_TOKEN=... -v raptor-data:/data raptor-bot
#
# The SQLite database lives on the volume /data (RAPTOR_DB_PATH); settings come from the
# environment (-e NAME=value or --env-file .env, see .env.example). Logs go to stderr
# (docker logs raptor). `docker stop` sends SIGTERM: the bot finishes the interactions in
# flight, closes the database and exits 0 within 10 s. Podman reads this file too.

# A mirror of the official image can be given with --build-arg PYTHON_IMAGE=...
ARG PYTHON_IMAGE=python:3.11-slim-bookworm
FROM ${PYTHON_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Only what the package needs (the build reads README.md for the package description).
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engine ./engine
COPY render ./render
# The package and its dependencies, without the dev extras (no test tools in the image).
RUN pip install --no-cache-dir . && rm -rf /src

# A user without privileges owns the database folder; the bot runs as that user.
RUN useradd --user-group --uid 10001 --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin raptor \
    && mkdir /data && chown raptor:raptor /data
ENV RAPTOR_DB_PATH=/data/raptor.sqlite3
VOLUME ["/data"]
WORKDIR /data
USER raptor

# The exec form makes the bot PID 1, so SIGTERM reaches it directly.
CMD ["python", "-m", "bot"]

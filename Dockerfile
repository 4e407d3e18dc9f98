# The csi-attacher image: built on Debian bookworm with the project's own
# dependency script, shipped on bookworm-slim with only the shared libraries
# the binary links (deploy/image/runtime-packages.txt, kept exact by
# scripts/check-image-libs.sh), as a non-root user, entrypoint /csi-attacher
# like upstream's image.
#
#   docker build -t csi-attacher .

FROM debian:bookworm AS build
# git: the version (--version, user agent) comes from `git describe`.
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY scripts/install-deps.sh scripts/
RUN scripts/install-deps.sh && rm -rf /var/lib/apt/lists/*
COPY . .
RUN git config --global --add safe.directory /src \
    && cmake --preset default -DCSI_ATTACHER_TESTS=OFF \
    && cmake --build --preset default --target csi-attacher \
    && strip --strip-debug -o /csi-attacher build/default/cmd/csi-attacher/csi-attacher

FROM debian:bookworm-slim
COPY deploy/image/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
    && grep -v '^#' /tmp/runtime-packages.txt | xargs apt-get install -y --no-install-recommends \
    && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt
COPY --from=build /csi-attacher /csi-attacher
USER 65532:65532
ENTRYPOINT ["/csi-attacher"]

# unosim in a container: a static binary on a distroless base (no shell, no
# package manager), run as a non-root user.
#
#   docker build -t registry.example/unosim:0.1.0 .
#   docker run --rm -v "$PWD/results:/results" registry.example/unosim:0.1.0 \
#       simulate --games 1000000 --out /results/run
#
# The entrypoint is unosim itself, so that it is the container's first
# process and receives SIGTERM (a checkpoint is written and the run exits
# 130); a shell as the first process would not pass the signal on.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Static (no cgo), reproducible paths, the profile in cmd/unosim/default.pgo.
# Without .git in the context the build carries no VCS revision: records
# then name the build by the module version and the SHA-256 of the binary.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/unosim ./cmd/unosim \
 && /out/unosim version

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/unosim /usr/local/bin/unosim
# 65532 is distroless' "nonroot"; give the results volume to this user
# (Kubernetes: securityContext.fsGroup: 65532).
USER 65532:65532
WORKDIR /results
ENTRYPOINT ["/usr/local/bin/unosim"]
CMD ["--help"]

# One image for the api, worker and demo model binaries.
FROM node:20-bookworm AS web
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM golang:1.26-bookworm AS go
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
RUN apt-get update && apt-get install -y --no-install-recommends libtesseract-dev libleptonica-dev \
    && rm -rf /var/lib/apt/lists/*
COPY . .
# The worker links tesseract (cgo) for OCR; the api and demo model need no C.
RUN CGO_ENABLED=0 go build -o /out/ ./cmd/api ./cmd/fakellm && CGO_ENABLED=1 go build -o /out/ ./cmd/worker

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates poppler-utils tesseract-ocr tesseract-ocr-eng libtesseract5 \
    && rm -rf /var/lib/apt/lists/* && useradd -r -u 10001 markwell && mkdir -p /data/blobs && chown markwell /data/blobs
COPY --from=go /out/ /usr/local/bin/
COPY --from=web /src/frontend/dist /srv/frontend
ENV STATIC_DIR=/srv/frontend BLOB_DIR=/data/blobs HTTP_ADDR=:8080
USER markwell
EXPOSE 8080
CMD ["api"]

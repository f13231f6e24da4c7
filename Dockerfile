# Three images from one file, each with only what it runs:
#   --target api         the API, the built frontend and the demo model (the default)
#   --target worker      a worker without tesseract: the ai, default and extract queues
#   --target worker-ocr  a worker linked with tesseract (cgo): the ocr queue too
# docker-compose.yml builds all three.
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
# Only the ocr worker links tesseract (cgo); everything else is static Go.
RUN CGO_ENABLED=0 go build -o /out/ ./cmd/api ./cmd/fakellm ./cmd/worker \
    && CGO_ENABLED=1 go build -o /out/cgo/ ./cmd/worker

# poppler-utils: pdftotext (extraction, chat attachments), pdftoppm (page
# images, answer-box crops), and pdfimages and pdfinfo (is a page of few words
# a scan?) are used by the API and every worker, and so is
# libheif-examples: heif-convert reads HEIC photos (extraction, page images).
# LibreOffice (writer and impress, without a GUI, about 300 MB) converts
# OpenDocument, RTF and 97–2003 Office files for extraction (every worker
# that runs the extract queue, and the API for chat attachments) and shows
# Word and PowerPoint submissions as their pages (the API). It also writes
# the feedback reports (PDF; the API for one student, the worker's
# build_reports for a class, joined by poppler's pdfunite), set in Noto:
# fonts-noto-core (Latin, Greek, Cyrillic, Arabic, Hebrew and most other
# scripts) and fonts-noto-cjk (Chinese, Japanese, Korean).
FROM debian:bookworm-slim AS base
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates poppler-utils libheif-examples \
    libreoffice-writer-nogui libreoffice-impress-nogui fonts-dejavu-core fonts-noto-core fonts-noto-cjk \
    && rm -rf /var/lib/apt/lists/* && useradd -r -u 10001 markwell && mkdir -p /data/blobs && chown markwell /data/blobs
ENV BLOB_DIR=/data/blobs
USER markwell

FROM base AS worker-ocr
USER root
RUN apt-get update && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng libtesseract5 \
    && rm -rf /var/lib/apt/lists/*
USER markwell
COPY --from=go /out/cgo/worker /usr/local/bin/worker
ENV WORKER_QUEUES=extract=2,ocr=2
CMD ["worker", "--addr", "0.0.0.0:9091"]

FROM base AS worker
COPY --from=go /out/worker /usr/local/bin/worker
ENV WORKER_QUEUES=ai=64,default=10,extract=2
CMD ["worker", "--addr", "0.0.0.0:9091"]

FROM base AS api
COPY --from=go /out/api /out/fakellm /usr/local/bin/
COPY --from=web /src/frontend/dist /srv/frontend
ENV STATIC_DIR=/srv/frontend HTTP_ADDR=:8080
EXPOSE 8080
CMD ["api"]

# Markwell — `make dev` runs the whole product, `make test` runs every test.
# Both install what is missing (Debian packages, Go modules, npm packages).
SHELL := /bin/bash
export PATH := $(CURDIR)/.data/go/bin:$(PATH)

.PHONY: dev test test-faults test-scale bench build generate migrate db db-stop lint clean help

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

dev: ## run the whole product at http://localhost:8080 (Ctrl-C stops it)
	@scripts/dev.sh

test: ## vet, Go tests, frontend unit tests and the browser suite
	@scripts/test.sh

.PHONY: test-corpus
test-corpus: ## score the reader on ~125 real documents fetched at pinned versions (network, minutes; docs/performance.md)
	@scripts/bootstrap.sh --no-browser
	@scripts/corpus/fetch.sh
	go build -o .data/bin/ ./cmd/corpus
	.data/bin/corpus $(CORPUS_FLAGS)

.PHONY: test-fuzz
test-fuzz: ## run every Go fuzz target longer (FUZZTIME per target, default 1m)
	@FUZZTIME=$${FUZZTIME:-1m} scripts/fuzz.sh

test-faults: ## the fault suite, full form: batches of 300, a few minutes (docs/faults.md)
	@scripts/bootstrap.sh --no-browser
	@scripts/pg.sh start
	TEST_DATABASE_URL=$${TEST_DATABASE_URL:-$$(scripts/pg.sh url)} FAULTS=full go test -tags faults -count=1 -v -timeout 30m ./internal/faults/

test-scale: ## two APIs behind nginx, PgBouncer, three workers on one machine; kills mid-run (a few minutes; docs/operations.md)
	@scripts/test-scale.sh $(SCALE_FLAGS)

bench: ## the Monday-morning report (cmd/bench): a table and bench/results.json; BENCH_FLAGS=-quick for a smoke run
	@scripts/bootstrap.sh
	@scripts/pg.sh start
	go build -o .data/bin/ ./cmd/api ./cmd/worker ./cmd/fakellm
	npm --prefix frontend run build
	TEST_DATABASE_URL=$$(scripts/pg.sh url) go run ./cmd/bench $(BENCH_FLAGS)

build: ## build the binaries into .data/bin and the frontend into frontend/dist
	@scripts/bootstrap.sh --no-browser
	go build -o .data/bin/ ./cmd/api ./cmd/worker ./cmd/fakellm
	npm --prefix frontend run build

generate: ## regenerate sqlc code from internal/store/queries
	go run github.com/sqlc-dev/sqlc/cmd/sqlc@v1.31.1 generate

migrate: ## apply migrations to DATABASE_URL (or the local cluster)
	@scripts/pg.sh start
	DATABASE_URL=$${DATABASE_URL:-$$(scripts/pg.sh url)} SECRET_KEY=$${SECRET_KEY:-$$(cat .data/secret)} go run ./cmd/api migrate

db: ## start the project-local PostgreSQL and print its URL
	@scripts/pg.sh start && scripts/pg.sh url

db-stop: ## stop the project-local PostgreSQL
	@scripts/pg.sh stop

clean: ## remove build output (keeps the database and files in .data)
	rm -rf .data/bin frontend/dist e2e/output

# Builds one kiebitz engine binary, the way OpenBench (and fishtest-like testers) expect:
#
#     make EXE=path/to/binary [ENGINE=kiebitz-chess]
#
# ENGINE picks the engine: kiebitz-chess (default), kiebitz-raeuber, kiebitz-pawns,
# kiebitz-crash, kiebitz-chamaeleon or any other [[bin]] of Cargo.toml. EXE is where the
# binary goes (default: ./$(ENGINE)). The build is `cargo build --release` with the project's
# own flags (.cargo/config.toml).
#
#     make all      every binary into target/release/
#     make clean    cargo clean

ENGINE ?= kiebitz-chess
EXE ?= $(ENGINE)
CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

ifeq ($(OS),Windows_NT)
    SUFFIX := .exe
    # OpenBench names the file without the suffix on every system.
    OUT := $(patsubst %.exe,%,$(EXE)).exe
else
    SUFFIX :=
    OUT := $(EXE)
endif

.PHONY: default all clean

default:
	$(CARGO) build --release --bin $(ENGINE)
	cp $(TARGET_DIR)/release/$(ENGINE)$(SUFFIX) $(OUT)

all:
	$(CARGO) build --release --bins

clean:
	$(CARGO) clean

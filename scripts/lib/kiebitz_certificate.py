"""Reads kiebitz's certificates in the text format (`kiebitz-proof 1`): the header fields
(variant, root, winner or holder, …) and the `node FEN;MOVE` lines, for the independent
checkers of scripts/oracles/."""
import sys


def read(path, needs):
    """The header as a dict and the nodes as (FEN, MOVE) pairs of the certificate at `path`;
    exits with a message unless it is in the text format and has one of the fields `needs`."""
    head, nodes = {}, []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("node "):
                fen, move = line[5:].rsplit(";", 1)
                nodes.append((fen.strip(), move.strip()))
            else:
                key, _, rest = line.partition(" ")
                head[key] = rest.strip()
    if head.get("kiebitz-proof") != "1" or not any(k in head for k in needs):
        sys.exit(f"{path}: not a certificate in the text format (kiebitz-proof 1, "
                 f"{' or '.join(needs)})")
    return head, nodes

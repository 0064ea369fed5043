"""The base protocol for the benchmark drivers: a message framed with `Content-Length`, and the
next message read from a server's stdout (standard library only)."""
import json


def framed(message):
    """The bytes of `message` (a JSON-RPC object) with its `Content-Length` header."""
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream):
    """The next message on `stream`; EOFError when the server closed it."""
    header = b""
    while not header.endswith(b"\r\n\r\n"):
        byte = stream.read(1)
        if not byte:
            raise EOFError("the server closed its output")
        header += byte
    length = next(int(line.split(b":")[1]) for line in header.split(b"\r\n") if line.lower().startswith(b"content-length"))
    return json.loads(stream.read(length))

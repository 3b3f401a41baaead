"""Write the words moderators accepted (SPEC §3e, `accept_word`) into dictionary/additions.txt,
one `word<TAB>case id` a line, for the next dictionary build (`make dictionary`). A Lambda cannot
write the shipped file, so the decision keeps the word in the table (`MODWORDS`); a maintainer
runs this before the build and commits the file with the build (docs/moderation.md).

    python scripts/accepted_words.py --table <table name>                # the AWS credentials in use
    python scripts/accepted_words.py --table wordsqd --endpoint-url http://127.0.0.1:8000

One Query of one partition. Words already listed in the file keep their line; new ones are added,
in word order. Prints how many words it added.
"""

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import boto3  # noqa: E402

from shared.dynamo.accepted_words import DynamoAcceptedWords  # noqa: E402
from shared.dynamo.client import Client  # noqa: E402

ADDITIONS = REPO / "dictionary" / "additions.txt"


def merged(listed: str, accepted: list[tuple[str, str]]) -> tuple[str, int]:
    """The file's text with ACCEPTED (word, case id) added where the word is not listed yet."""
    lines = [line for line in listed.splitlines() if line.strip()]
    known = {line.split("\t", 1)[0] for line in lines if not line.startswith("#")}
    added = [f"{word}\t{case_id}" for word, case_id in accepted if word not in known]
    return "\n".join(lines + added) + "\n", len(added)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", required=True)
    parser.add_argument("--endpoint-url")
    parser.add_argument("--out", type=Path, default=ADDITIONS)
    args = parser.parse_args()
    client = boto3.client("dynamodb", endpoint_url=args.endpoint_url)
    accepted = DynamoAcceptedWords(Client(args.table, client)).accepted_words()
    text, added = merged(args.out.read_text() if args.out.exists() else "", accepted)
    args.out.write_text(text)
    print(f"{added} word(s) added to {args.out}")


if __name__ == "__main__":
    main()

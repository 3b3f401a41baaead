"""SPEC §5 display names: names that look alike are the same name (the skeleton), the reserved
`player-` prefix compares skeletons, and a name containing a blocklisted word is refused."""

import boto3
import pytest

from shared.dynamo.keys import BOARD_SHARDS
from shared.game.dictionary import DICTIONARY_DIR
from shared.game.errors import BadRequest
from shared.game.names import check_display_name, contains_blocked_word, name_skeleton
from shared.services.ports import NameTaken
from tests.game.test_dictionary import blocklist


@pytest.mark.parametrize(
    ("name", "skeleton"),
    [
        ("Bill", "blll"),
        ("BiII", "blll"),
        ("Bi11", "blll"),
        ("B0b5", "bobs"),
        ("Ann  Lee", "ann-lee"),
        ("ann_-_lee", "ann-lee"),
        ("ANN-LEE", "ann-lee"),
    ],
)
def test_skeleton_lowercases_and_maps_0_to_o_1_i_l_to_l_5_to_s_and_runs_of_separators_to_one_dash(
    name, skeleton
):
    assert name_skeleton(name) == skeleton


def test_skeleton_bill_biii_and_bi11_are_the_same_name():
    assert name_skeleton("BiII") == name_skeleton("Bi11") == name_skeleton("Bill")
    assert name_skeleton("Bell") != name_skeleton("Bill")


@pytest.mark.parametrize("name", ["player-d9aa", "pIayer-d9aa", "player_d9aa", "p1ayer-d9aa", "PLAYER d9aa"])
def test_reserved_prefix_player_compares_skeletons(name):
    with pytest.raises(BadRequest) as refused:
        check_display_name(name)
    assert refused.value.code == "invalid_display_name"


@pytest.mark.parametrize("name", ["players", "Player1", "playerd9aa"])
def test_reserved_prefix_only_refuses_names_that_look_like_player_dash(name):
    assert check_display_name(name) == name


def test_blocklisted_words_are_refused_as_display_name_not_allowed():
    for word in blocklist():
        if not 3 <= len(word) <= 20:
            continue
        with pytest.raises(BadRequest) as refused:
            check_display_name(word.capitalize())
        assert refused.value.code == "display_name_not_allowed", word


def test_blocklisted_words_are_found_inside_names_through_look_alikes_and_separators():
    longer = sorted(w for w in blocklist() if 4 <= len(w) <= 8)[:40]
    for word in longer:
        disguised = word.replace("o", "0").replace("s", "5").replace("i", "1").replace("l", "I")
        spaced = "_".join(word)[:20]
        for name in (f"x{disguised}x", spaced, f"The {word}"[:20]):
            assert contains_blocked_word(name), name


@pytest.mark.parametrize("name", ["f a g", "f_a_g", "F-A-G", "c u m", "Mr fag", "fag_99", "xcumx", "JAPster"])
def test_three_letter_blocklisted_words_are_refused_anywhere_and_through_separators(name):
    with pytest.raises(BadRequest) as refused:
        check_display_name(name)
    assert refused.value.code == "display_name_not_allowed"


def test_every_three_letter_blocklisted_word_is_found_spaced_out_and_inside_a_name():
    short = [w for w in blocklist() if len(w) == 3]
    assert short
    for word in short:
        for name in (" ".join(word), "_".join(word.upper()), "-".join(word), f"x{word}x", f"Mr {word}"):
            assert contains_blocked_word(name), name


@pytest.mark.parametrize(
    ("name", "reads_as"),
    [("F4G", "fag"), ("CU3 M", "cue"), ("7wat", "twat"), ("c@mp f@g", "fag"), ("wh0r3", "whore")],
)
def test_the_blocklist_check_reads_3_as_e_4_as_a_7_as_t_and_at_as_a(name, reads_as):
    assert contains_blocked_word(name) == (reads_as != "cue"), name


def test_an_innocent_word_excuses_the_blocked_word_inside_it_only_within_one_word_of_the_name():
    for innocent in (
        "About me",
        "Jewel",
        "Cucumber",
        "SpicyTaco",
        "JewelThief",
        "Roundabout 7",
        "Scunthorpe",
    ):
        assert not contains_blocked_word(innocent), innocent
    for joined in ("Cum in", "a bout", "c u m i n", "jewel fag", "aboutcum"):
        assert contains_blocked_word(joined), joined


def test_every_allowlisted_word_contains_a_blocked_word_and_is_allowed_as_a_name():
    lines = (DICTIONARY_DIR / "name-allowlist.txt").read_text(encoding="utf-8").splitlines()
    words = [line for line in lines if line and not line.startswith("#")]
    assert words == sorted(set(words))
    blocked = [name_skeleton(w) for w in blocklist()]
    for word in words:
        assert any(b in name_skeleton(word) for b in blocked), f"{word} excuses nothing: drop it"
        assert not contains_blocked_word(word), word


@pytest.mark.parametrize("name", ["Ann", "Bill", "Ann Lee", "dragon_99", "Cucumber"])
def test_ordinary_names_are_allowed(name):
    assert check_display_name(name) == name


# Through the store: a name claim is keyed by the skeleton -------------------------------------


@pytest.fixture
def store(table):
    from shared.dynamo.store import dynamo_ports

    return dynamo_ports(table, board_shards=BOARD_SHARDS)


def claims(table: str) -> dict[str, str]:
    items = boto3.client("dynamodb").scan(TableName=table)["Items"]
    return {i["pk"]["S"]: i["player"]["S"] for i in items if i["pk"]["S"].startswith("NAME#")}


def test_look_alike_names_clash_in_the_store(store, table):
    store.names.set_display_name("p-bill", "Bill")
    for look_alike in ("BiII", "Bi11", "bill", "B1LL"):
        with pytest.raises(NameTaken):
            store.names.set_display_name("p-other", look_alike)
    store.names.set_display_name("p-bill", "BiII")  # the holder may change how it looks
    assert store.names.display_names(["p-bill", "p-other"]) == {"p-bill": "BiII"}
    assert claims(table) == {"NAME#blll": "p-bill"}


def test_existing_names_that_now_clash_both_keep_working_until_one_renames(store, table):
    """Names claimed before skeletons were keyed by name.lower(), so `Bill` and `BiII` could both
    be taken. Both keep their names; each old claim stays checked (nobody else can take `bill`)
    and is released when its holder renames. Setting a name again claims its skeleton (the
    migration, docs/game.md); of two clashing names only the first to do so gets it."""
    client = boto3.client("dynamodb")
    for player, name in (("p-first", "Bill"), ("p-second", "BiII")):
        claim = {"pk": {"S": f"NAME#{name.lower()}"}, "sk": {"S": "NAME"}, "player": {"S": player}}
        profile = {"pk": {"S": f"PLAYER#{player}"}, "sk": {"S": "PROFILE"}, "display_name": {"S": name}}
        client.put_item(TableName=table, Item=claim)
        client.put_item(TableName=table, Item=profile)
    assert store.names.display_names(["p-first", "p-second"]) == {"p-first": "Bill", "p-second": "BiII"}
    with pytest.raises(NameTaken):
        store.names.set_display_name("p-third", "bill")  # the old lowercase claim still holds

    store.names.set_display_name("p-second", "BiII")  # migrated: it now holds the skeleton too
    with pytest.raises(NameTaken):
        store.names.set_display_name("p-first", "Bill")  # the clashing name cannot claim it ...
    with pytest.raises(NameTaken):
        store.names.set_display_name("p-third", "Bi11")  # ... nor can a newcomer
    assert store.names.display_names(["p-first", "p-second"]) == {"p-first": "Bill", "p-second": "BiII"}

    store.names.set_display_name("p-first", "Wilma")  # renaming releases the old lowercase claim
    assert claims(table) == {"NAME#biii": "p-second", "NAME#blll": "p-second", "NAME#wllma": "p-first"}
    with pytest.raises(NameTaken):
        store.names.set_display_name("p-third", "bill")  # the skeleton is p-second's now


def test_put_me_with_a_blocklisted_word_is_400_display_name_not_allowed(table):
    from functions.leaderboard.handler import handler
    from tests.conftest import Api

    word = next(w for w in blocklist() if 4 <= len(w) <= 10)
    status, body, _ = Api(handler)("PUT", "/me", {"display_name": f"The {word}"}, user="ann")
    assert status == 400 and body["error"]["code"] == "display_name_not_allowed"
    status, body, _ = Api(handler)("PUT", "/me", {"display_name": "BiII"}, user="bob")
    assert status == 200
    status, body, _ = Api(handler)("PUT", "/me", {"display_name": "Bi11"}, user="cat")
    assert status == 409 and body["error"]["code"] == "display_name_taken"


@pytest.mark.parametrize("name", ["_-_", "---", "___", "_ _", "- -", "-_-_-_-_-_-_-_-_-_-_"])
def test_a_display_name_needs_at_least_one_letter_or_digit(name):
    with pytest.raises(BadRequest) as refused:
        check_display_name(name)
    assert refused.value.code == "invalid_display_name"
    assert check_display_name(name[:-1] + "a") == name[:-1] + "a"


def test_put_me_with_only_separators_is_400_invalid_display_name(table):
    from functions.leaderboard.handler import handler
    from tests.conftest import Api

    status, body, _ = Api(handler)("PUT", "/me", {"display_name": "_-_"}, user="ann")
    assert status == 400 and body["error"]["code"] == "invalid_display_name"


def test_a_league_name_needs_at_least_one_letter_or_digit_too():
    from shared.game.names import check_league_name

    with pytest.raises(BadRequest) as refused:
        check_league_name("_-_-_")
    assert refused.value.code == "invalid_league_name"
    assert check_league_name("_-a-_") == "_-a-_"

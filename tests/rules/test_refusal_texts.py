"""The rules engine's refusals: French texts unchanged, and each one translatable by the app.

A refusal keeps the French format string it was built from (`template`, marked with `fr` for
`makemessages`) and its params, so the app can show it in the viewer's language; in French,
`message` reads exactly as it always did (the table below was taken before that change).
"""

import ast
from pathlib import Path

import pytest

from apps.rules import aethoria, checks, dice, errors, ew, initiative
from apps.rules.errors import FrenchText, format_french, fr

RULES = Path(checks.__file__).parent

# Each call raises one refusal of the engine; the message is the French text users have
# always read (captured from the engine before it kept its templates).
REFUSALS = [
    pytest.param(
        lambda: dice.check_d20(21),
        errors.InvalidFace,
        "Un d20 donne un résultat entre 1 et 20 (reçu : 21).",
        id="d20_face_21",
    ),
    pytest.param(
        lambda: dice.check_d10("3"),
        errors.InvalidFace,
        "Un d10 donne un résultat entre 1 et 10 (reçu : '3').",
        id="d10_face_str",
    ),
    pytest.param(
        lambda: dice.check_faces("12", 10),
        errors.InvalidFace,
        "Les résultats des dés doivent être une liste de nombres.",
        id="faces_not_list",
    ),
    pytest.param(
        lambda: dice.check_faces((1, 2), 10, count=3),
        errors.InvalidPool,
        "Il faut exactement 3 résultat(s) de d10 (reçu : 2).",
        id="faces_count",
    ),
    pytest.param(
        lambda: dice.check_dice_count("x"),
        errors.InvalidPool,
        "Le nombre de dés doit être un entier (reçu : 'x').",
        id="dice_count_str",
    ),
    pytest.param(
        lambda: dice.check_dice_count(-1),
        errors.InvalidPool,
        "Le nombre de dés ne peut pas être négatif (reçu : -1).",
        id="dice_count_negative",
    ),
    pytest.param(
        lambda: dice.check_dice_count(10**6),
        errors.InvalidPool,
        "Le nombre de dés ne peut pas dépasser 100 (reçu : 1000000).",
        id="dice_count_max",
    ),
    pytest.param(
        lambda: dice.ScriptedDice(d10=(1,)).d10(3),
        errors.DiceExhausted,
        "Il manque des d10 : 3 demandé(s), 1 restant(s).",
        id="scripted_exhausted",
    ),
    pytest.param(
        lambda: checks.require_int("x", field="f", label="Les PV"),
        errors.InvalidValue,
        "Les PV : un nombre entier est attendu (reçu : 'x').",
        id="require_int_type",
    ),
    pytest.param(
        lambda: checks.require_int(12, field="f", label="Les PV", low=0, high=10),
        errors.InvalidValue,
        "Les PV : valeur attendue entre 0 et 10 (reçu : 12).",
        id="require_int_range",
    ),
    pytest.param(
        lambda: checks.require_int(-1, field="f", label="Les PV", low=0),
        errors.InvalidValue,
        "Les PV : valeur attendue d'au moins 0 (reçu : -1).",
        id="require_int_low",
    ),
    pytest.param(
        lambda: checks.require_int(11, field="f", label="Les PV", high=10),
        errors.InvalidValue,
        "Les PV : valeur attendue d'au plus 10 (reçu : 11).",
        id="require_int_high",
    ),
    pytest.param(
        lambda: checks.require_int("x", field="pv"),
        errors.InvalidValue,
        "pv : un nombre entier est attendu (reçu : 'x').",
        id="require_int_nolabel",
    ),
    pytest.param(
        lambda: checks.require_bool(1, field="f", label="Le cumul"),
        errors.InvalidValue,
        "Le cumul : vrai ou faux est attendu (reçu : 1).",
        id="require_bool",
    ),
    pytest.param(
        lambda: checks.require_choice("z", ("b", "a"), field="f", label="L'arrondi"),
        errors.InvalidValue,
        "L'arrondi : une de ces valeurs est attendue : a, b (reçu : 'z').",
        id="require_choice",
    ),
    pytest.param(
        lambda: checks.require_text(" ", field="f", label="La localisation"),
        errors.InvalidValue,
        "La localisation : un texte non vide est attendu (reçu : ' ').",
        id="require_text",
    ),
    pytest.param(
        lambda: checks.tuples_from_json("x", field="ladder", size=2),
        errors.InvalidValue,
        "La valeur ladder doit être une liste d'entrées de 2 éléments.",
        id="tuples_from_json",
    ),
    pytest.param(
        lambda: checks.require_labelled_values((), field="f", label="Les malus", low=0, high=3),
        errors.InvalidValue,
        "Les malus : au moins une entrée est nécessaire.",
        id="labelled_empty",
    ),
    pytest.param(
        lambda: checks.require_labelled_values((1,), field="f", label="Les malus", low=0, high=3),
        errors.InvalidValue,
        "Les malus : chaque entrée est une paire (libellé, valeur).",
        id="labelled_pair",
    ),
    pytest.param(
        lambda: checks.require_labelled_values(
            (("", 1),), field="f", label="Les malus", low=0, high=3
        ),
        errors.InvalidValue,
        "Les malus (libellé) : un texte non vide est attendu (reçu : '').",
        id="labelled_name",
    ),
    pytest.param(
        lambda: checks.require_labelled_values(
            (("court", 9),), field="f", label="Les malus", low=0, high=3
        ),
        errors.InvalidValue,
        "Les malus (court) : valeur attendue entre 0 et 3 (reçu : 9).",
        id="labelled_value",
    ),
    pytest.param(
        lambda: checks.require_labelled_values(
            (("court", 1), ("court", 2)), field="f", label="Les malus", low=0, high=3
        ),
        errors.InvalidValue,
        "Les malus : « court » est en double.",
        id="labelled_dup",
    ),
    pytest.param(
        lambda: aethoria.AethoriaHouseRules(pv_multiplier=0),
        errors.InvalidHouseRules,
        "Le multiplicateur de PV : valeur attendue entre 1 et 10 (reçu : 0).",
        id="a_house_int",
    ),
    pytest.param(
        lambda: aethoria.AethoriaHouseRules(armour_layers_stack=1),
        errors.InvalidHouseRules,
        "Le cumul des armures : vrai ou faux est attendu (reçu : 1).",
        id="a_house_bool",
    ),
    pytest.param(
        lambda: aethoria.AethoriaHouseRules(difficulty_ladder=()),
        errors.InvalidHouseRules,
        "L'échelle de difficulté : au moins une entrée est nécessaire.",
        id="a_house_ladder",
    ),
    pytest.param(
        lambda: aethoria.AethoriaHouseRules(range_band_malus=(("court", 99),)),
        errors.InvalidHouseRules,
        "Les malus de portée (court) : valeur attendue entre -20 et 20 (reçu : 99).",
        id="a_house_range",
    ),
    pytest.param(
        lambda: aethoria.AethoriaHouseRules.from_dict([]),
        errors.InvalidHouseRules,
        "Les règles maison doivent être un dictionnaire.",
        id="a_house_not_dict",
    ),
    pytest.param(
        lambda: aethoria.AethoriaHouseRules.from_dict({"instant_death_locations": 3}),
        errors.InvalidHouseRules,
        "Les localisations mortelles doivent être une liste.",
        id="a_house_deadly",
    ),
    pytest.param(
        lambda: aethoria.AethoriaHouseRules(hit_locations=()),
        errors.InvalidHouseRules,
        "La table de localisation est vide.",
        id="a_loc_empty",
    ),
    pytest.param(
        lambda: aethoria.AethoriaHouseRules(hit_locations=((1, 20),)),
        errors.InvalidHouseRules,
        "Chaque ligne de localisation est (de, à, localisation).",
        id="a_loc_shape",
    ),
    pytest.param(
        lambda: aethoria.AethoriaHouseRules(hit_locations=((1, 10, "head"), (12, 20, "torso"))),
        errors.InvalidHouseRules,
        "La table de localisation doit couvrir 1 à 20 sans trou ni chevauchement "
        "(la plage de 'torso' commence à 12, attendu 11).",
        id="a_loc_gap",
    ),
    pytest.param(
        lambda: aethoria.AethoriaHouseRules(hit_locations=((1, 10, "head"),)),
        errors.InvalidHouseRules,
        "La table de localisation doit couvrir 1 à 20 sans trou ni chevauchement.",
        id="a_loc_short",
    ),
    pytest.param(
        lambda: aethoria.DEFAULT_HOUSE_RULES.range_malus("lune"),
        errors.InvalidValue,
        "Portée inconnue : 'lune' (portées : short, medium, long, extreme).",
        id="a_range_unknown",
    ),
    pytest.param(
        lambda: aethoria.check_characteristic(15, "force"),
        errors.InvalidCharacteristic,
        "Force : valeur attendue entre 1 et 9 (reçu : 15).",
        id="a_characteristic",
    ),
    pytest.param(
        lambda: aethoria.check_skill_rank(10),
        errors.InvalidSkillRank,
        "Le rang de compétence : valeur attendue entre 0 et 9 (reçu : 10).",
        id="a_skill_rank",
    ),
    pytest.param(
        lambda: aethoria.pool_size(0),
        errors.RollNotAllowed,
        "Rang 0 : le personnage ne peut pas tenter ce jet sans l'accord du MJ.",
        id="a_rank_zero",
    ),
    pytest.param(
        lambda: aethoria._check_fatigue_count(4),
        errors.InvalidFatigueSpend,
        "Les dés de fatigue : valeur attendue entre 1 et 3 (reçu : 4).",
        id="a_fatigue_count",
    ),
    pytest.param(
        lambda: aethoria.parse_damage("abc"),
        errors.InvalidWeapon,
        "Dégâts illisibles : 'abc' (format attendu : « 4+4d », « 4d » ou « 3 »).",
        id="a_damage_notation",
    ),
    pytest.param(
        lambda: aethoria.check_location("tail"),
        errors.InvalidLocation,
        "Localisation inconnue : 'tail'.",
        id="a_location_unknown",
    ),
    pytest.param(
        lambda: aethoria.TurnState(acted=True).act(aethoria.DEFENSE),
        errors.InvalidAction,
        "Ce personnage a déjà agi ce tour-ci.",
        id="a_turn_acted",
    ),
    pytest.param(
        lambda: aethoria.TurnState().fire_prepared(),
        errors.InvalidAction,
        "Aucune action préparée.",
        id="a_no_prepared",
    ),
    pytest.param(
        lambda: aethoria.TurnState(defences=1).use_defences(2),
        errors.InvalidDefence,
        "Plus assez de défenses : 2 demandée(s), 1 disponible(s).",
        id="a_defences",
    ),
    pytest.param(
        lambda: aethoria.check_can_cast_in_combat("none"),
        errors.InvalidSpell,
        "Ce personnage ne pratique pas la magie.",
        id="a_no_magic",
    ),
    pytest.param(
        lambda: aethoria.check_can_cast_in_combat(aethoria.MARQUE),
        errors.InvalidSpell,
        "Un marqué doit prier plusieurs minutes en transe : pas de sort en combat.",
        id="a_marque",
    ),
    pytest.param(
        lambda: aethoria.check_parry_allowed(8, 4),
        errors.InvalidDefence,
        "Parade impossible : la Force de l'attaquant (8) dépasse de 3 ou plus celle du "
        "défenseur (4). Il faut esquiver.",
        id="a_parry_gap",
    ),
    pytest.param(
        lambda: ew.EwHouseRules(extra_action_malus=5),
        errors.InvalidHouseRules,
        "Le malus par action supplémentaire : valeur attendue entre -20 et 0 (reçu : 5).",
        id="e_house_int",
    ),
    pytest.param(
        lambda: ew.EwHouseRules(rounding="zz"),
        errors.InvalidHouseRules,
        "L'arrondi : une de ces valeurs est attendue : down, nearest, up (reçu : 'zz').",
        id="e_house_choice",
    ),
    pytest.param(
        lambda: ew.EwHouseRules(resolution_grid=((1,),)),
        errors.InvalidResolutionTable,
        "La table de résolution doit avoir au moins 21 lignes (NA 0 à 20).",
        id="e_grid_small",
    ),
    pytest.param(
        lambda: ew.check_characteristic(2, "phy"),
        errors.InvalidCharacteristic,
        "PHY : valeur attendue entre 3 et 10 (reçu : 2).",
        id="e_characteristic",
    ),
    pytest.param(
        lambda: ew.check_specialty_level(7),
        errors.InvalidSpecialty,
        "Le niveau de spécialité : valeur attendue entre 0 et 6 (reçu : 7).",
        id="e_specialty",
    ),
    pytest.param(
        lambda: ew.spend_coup_de_pouce(0),
        errors.InvalidEclatSpend,
        "Plus aucun point d'éclat à dépenser.",
        id="e_eclat_none",
    ),
    pytest.param(
        lambda: ew.spend_coup_de_pouce(2, 3),
        errors.InvalidEclatSpend,
        "La note du coup de pouce doit être un texte.",
        id="e_eclat_note",
    ),
    pytest.param(
        lambda: ew.revert_eclat_spend(3, ew.spend_coup_de_pouce(1), maximum=3),
        errors.InvalidEclatSpend,
        "Annuler cette dépense dépasserait le maximum de 3 points d'éclat.",
        id="e_eclat_max",
    ),
    pytest.param(
        lambda: ew.RoundActions(0, 1).declare_total_attack(),
        errors.InvalidAction,
        "Attaque totale impossible : le personnage s'est déjà défendu ce round.",
        id="e_total_attack",
    ),
    pytest.param(
        lambda: ew.RoundActions(1, 0).declare_total_defence(),
        errors.InvalidAction,
        "Défense totale impossible : le personnage a déjà attaqué ce round.",
        id="e_total_defence",
    ),
    pytest.param(
        lambda: ew.RoundActions(0, 0, ew.TOTAL_ATTACK).declare_total_defence(),
        errors.InvalidAction,
        "Une posture a déjà été choisie ce round.",
        id="e_stance",
    ),
    pytest.param(
        lambda: ew.RoundActions(0, 0, ew.TOTAL_DEFENCE).attack(),
        errors.InvalidAction,
        "En défense totale, le personnage ne peut pas attaquer ce round.",
        id="e_attack_in_defence",
    ),
    pytest.param(
        lambda: ew.RoundActions(0, 0, ew.TOTAL_ATTACK).defend(),
        errors.InvalidAction,
        "En attaque totale, le personnage ne peut pas se défendre ce round.",
        id="e_defend_in_attack",
    ),
    pytest.param(
        lambda: ew.characteristic_xp_cost(10),
        errors.InvalidImprovement,
        "Une caractéristique ne dépasse pas 10.",
        id="e_xp_char",
    ),
    pytest.param(
        lambda: ew.specialty_xp_cost(6, 1),
        errors.InvalidImprovement,
        "Une spécialité ne dépasse pas le niveau 6.",
        id="e_xp_specialty",
    ),
    pytest.param(
        lambda: ew.check_xp_affordable(3, 10),
        errors.NotEnoughXp,
        "Il faut 10 XP, le personnage n'en a que 3.",
        id="e_xp",
    ),
    pytest.param(
        lambda: ew.pools_after_phy_change(ew.EwPools.full(30), 4, 5),
        errors.InvalidImprovement,
        "Les PV (30) ne correspondent pas à PHY 4.",
        id="e_phy",
    ),
    pytest.param(
        lambda: initiative.order_by_initiative(
            [1, 1], key=lambda x: x, total=int, tie=None, draw=int
        ),
        errors.InvalidInitiative,
        "Le combattant 1 apparaît deux fois dans l'initiative.",
        id="e_initiative_dup",
    ),
    pytest.param(
        lambda: aethoria.AethoriaPools(10, 11, 5, 5, 5, 5),
        errors.InvalidValue,
        "Les PV : valeur attendue d'au plus 10 (reçu : 11).",
        id="a_pools_pv",
    ),
    pytest.param(
        lambda: aethoria.AethoriaPools(10, 10, 5, 5, 5, 6),
        errors.InvalidValue,
        "La fatigue mentale : valeur attendue entre 0 et 5 (reçu : 6).",
        id="a_pools_mental",
    ),
    pytest.param(
        lambda: aethoria.spend_fatigue(
            aethoria.AethoriaPools(10, 10, 5, 1, 5, 5), aethoria.PHYSICAL, 2
        ),
        errors.InvalidFatigueSpend,
        "Fatigue physique insuffisante : 2 demandé(s), 1 restant(s).",
        id="a_spend_fatigue_physical",
    ),
    pytest.param(
        lambda: aethoria.spend_fatigue(
            aethoria.AethoriaPools(10, 10, 5, 5, 5, 0), aethoria.MENTAL, 1
        ),
        errors.InvalidFatigueSpend,
        "Fatigue mentale insuffisante : 1 demandé(s), 0 restant(s).",
        id="a_spend_fatigue_mental",
    ),
    pytest.param(
        lambda: aethoria.plan_double_defence("jump", None, defences_left=2),
        errors.InvalidDefence,
        "La défense : une de ces valeurs est attendue : dodge, parry (reçu : 'jump').",
        id="a_defence_choice",
    ),
    pytest.param(
        lambda: aethoria.plan_double_defence(
            aethoria.DODGE_DEFENCE, aethoria.DODGE_DEFENCE, defences_left=1
        ),
        errors.InvalidDefence,
        "Plus assez de défenses : 2 demandée(s), 1 disponible(s).",
        id="a_double_defences",
    ),
    pytest.param(
        lambda: aethoria.plan_double_defence(
            aethoria.DODGE_DEFENCE, aethoria.DODGE_DEFENCE, defences_left=2, split=(1, 1)
        ),
        errors.InvalidDefence,
        "Le malus de -3 dés doit être réparti entre les deux jets (reçu : 1 et 1).",
        id="a_double_split",
    ),
    pytest.param(
        lambda: aethoria.plan_double_defence(
            aethoria.DODGE_DEFENCE, None, defences_left=2, split=(1, 1)
        ),
        errors.InvalidDefence,
        "Aucun malus à répartir pour cette défense.",
        id="a_double_split_none",
    ),
    pytest.param(
        lambda: aethoria.plan_double_defence(
            aethoria.DODGE_DEFENCE, None, defences_left=2, split=(1,)
        ),
        errors.InvalidDefence,
        "La répartition du malus est une paire d'entiers.",
        id="a_double_split_type",
    ),
    pytest.param(
        lambda: aethoria.plan_double_defence(aethoria.PARRY_DEFENCE, None, defences_left=2),
        errors.InvalidDefence,
        "Il faut une arme ou un bouclier pour parer.",
        id="a_parry_nothing",
    ),
    pytest.param(
        lambda: aethoria.check_double_attack(()),
        errors.InvalidWeapon,
        "L'attaque double demande deux armes à une main.",
        id="a_double_attack",
    ),
    pytest.param(
        lambda: ew.ensure_valid_creation(
            ew.EwCreation(phy=1, men=5, per=5, pre=5, factors=ew.FieldFactors(1, 1, 1, 1))
        ),
        errors.InvalidCreation,
        "La création ne respecte pas les règles (2 problème(s)).",
        id="e_creation",
    ),
]


def _raised(call):
    with pytest.raises(errors.RulesError) as caught:
        call()
    return caught.value


@pytest.mark.parametrize(("call", "kind", "message"), REFUSALS)
def test_every_refusal_reads_exactly_as_before_in_french(call, kind, message):
    error = _raised(call)
    assert type(error) is kind
    assert error.message == str(error) == message


@pytest.mark.parametrize(("call", "kind", "message"), REFUSALS)
def test_every_refusal_keeps_its_marked_template_and_params(call, kind, message):
    error = _raised(call)
    assert isinstance(error.template, FrenchText)
    assert error.template % error.params == error.message
    assert "%(" not in error.message


CREATION = ew.EwCreation(
    phy="x",
    men=11,
    per=5,
    pre=5,
    factors=ew.FieldFactors(-1, 1, 1, 1),
    specialties=(ew.SpecialtyChoice("Épée", "zz", 9), ew.SpecialtyChoice("Épée", "com", 1)),
    traits=(ew.TraitChoice("Brute", "x"),),
    powers=(ew.PowerChoice("Feu", 0, -1),),
    aptitudes=(ew.AptitudeChoice("Nage", -2),),
)
OVER_BUDGET = ew.EwCreation(
    phy=10,
    men=10,
    per=10,
    pre=10,
    specialties=(ew.SpecialtyChoice("Épée", "com", 6),),
    powers=(ew.PowerChoice("Feu", 50, 10),),
)
PROBLEMS = [
    (
        CREATION,
        [
            "PHY doit être un nombre entier.",
            "MEN : valeur attendue entre 3 et 10 (reçu : 11).",
            "Le facteur de coût du champ con doit être un entier positif ou nul.",
            "La spécialité « Épée » doit dépendre d'un champ (con, com, hab, soc).",
            "Le niveau de « Épée » doit être compris entre 0 et 6 (reçu : 9).",
            "La spécialité « Épée » est en double.",
            "Le coût du trait « Brute » doit être un nombre entier.",
            "Le niveau du pouvoir « Feu » doit être au moins 1.",
            "Le coût par niveau du pouvoir « Feu » doit être un entier positif.",
            "Le coût de l'aptitude « Nage » doit être un entier positif.",
        ],
    ),
    (
        OVER_BUDGET,
        [
            "Les caractéristiques doivent totaliser 28 points (total actuel : 40).",
            "506 points de génération dépensés pour un budget de 36 (470 de trop).",
        ],
    ),
]


@pytest.mark.parametrize(("creation", "messages"), PROBLEMS)
def test_creation_problems_read_as_before_and_keep_their_template(creation, messages):
    problems = ew.validate_creation(creation)
    assert [p.message for p in problems] == messages
    for problem in problems:
        assert isinstance(problem.template, FrenchText)
        assert format_french(problem.template, problem.params) == problem.message


def test_the_marker_changes_nothing_to_the_text():
    marked = fr("Les PV")
    assert marked == "Les PV" and str(marked) == "Les PV" and isinstance(marked, str)
    assert format_french(fr("Aucune action préparée."), {}) == "Aucune action préparée."


def test_a_refusal_built_from_a_plain_message_still_reads_it():
    error = errors.InvalidValue("Déjà annulé.", field="entry")
    assert error.message == error.template == "Déjà annulé." and error.params == {}


# --- Every French text of the engine is marked, so `makemessages` extracts it ---------------


def _calls(tree):
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)]


def _is_marked(node) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "fr"


def _unmarked_texts() -> list[str]:
    """French literals handed to a refusal, a Problem or a `label=` without `fr()`."""
    found = []
    for path in sorted(RULES.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        raised = {id(n.exc) for n in ast.walk(tree) if isinstance(n, ast.Raise) and n.exc}
        for call in _calls(tree):
            name = getattr(call.func, "id", "")
            texts = [k.value for k in call.keywords if k.arg == "label"]
            if id(call) in raised and name != "AssertionError" and call.args:
                texts.append(call.args[0])
            if name == "_problem" and len(call.args) > 2:
                texts.append(call.args[2])
            found += [
                f"{path.name}:{text.lineno}"
                for text in texts
                if isinstance(text, ast.Constant | ast.JoinedStr)
            ]
    return found


def test_every_french_text_handed_to_a_refusal_is_marked_with_fr():
    assert _unmarked_texts() == []
    # The walk does see the engine's texts (a broken walk must not pass vacuously).
    marked = [
        call
        for path in RULES.rglob("*.py")
        for call in _calls(ast.parse(path.read_text(encoding="utf-8")))
        if _is_marked(call)
    ]
    assert len(marked) > 200


def test_fr_marks_only_literal_texts():
    # An f-string inside fr() would be a different msgid for every value: never translated.
    bad = [
        f"{path.name}:{call.lineno}"
        for path in sorted(RULES.rglob("*.py"))
        for call in _calls(ast.parse(path.read_text(encoding="utf-8")))
        if _is_marked(call) and not isinstance(call.args[0], ast.Constant)
    ]
    assert bad == []

/**
 * The second held-out set's models: two more public schemas in neither the
 * development set nor the first held-out set (Instacart market basket,
 * IMDb's non-commercial datasets), with the schemas' own column names, a
 * few `#(doc)` lines and `# label` tags. Written with their questions
 * (test/eval/heldout2_questions.ts) after the first held-out set had been
 * read twice, before any score was run on them: changes made after that
 * point are judged on this set.
 * @module
 */
import { evalPackage, type EvalPackage } from "./schema.ts";

const INSTACART: EvalPackage = evalPackage("instacart", "instacart.malloy", "Instacart market basket: grocery orders", {
  aisles: {
    fields: ["aisle_id n",
      "aisle s = fresh fruits; fresh vegetables; packaged vegetables fruits; yogurt; packaged cheese; milk; water seltzer sparkling water; chips pretzels; bread; frozen produce; ice cream ice; eggs; baby food formula; cat food care; beers coolers; red wines",
      "aisle_count m"],
  },
  departments: {
    fields: ["department_id n",
      "department s = frozen; other; bakery; produce; alcohol; international; beverages; pets; dry goods pasta; bulk; personal care; meat seafood; pantry; breakfast; canned goods; dairy eggs; household; babies; snacks; deli; missing",
      "department_count m"],
  },
  products: {
    joins: { aisles: "aisles", departments: "departments" },
    fields: ["product_id n", "product_name s", "aisle_id n", "department_id n", "product_count m"],
  },
  orders: {
    fields: ["order_id n", "user_id n", "eval_set s = prior; train; test", "order_number n | The user's nth order",
      "order_dow n # label=\"Day of week, 0 is Sunday\"", "order_hour_of_day n", "days_since_prior_order n",
      "order_count m", "user_count m", "avg_days_between_orders m", "orders_by_hour v", "orders_by_weekday v"],
  },
  order_products: {
    joins: { orders: "orders", products: "products" },
    fields: ["order_id n", "product_id n", "add_to_cart_order n", "reordered b", "item_count m",
      "reorder_rate m | Share of items the user bought before", "avg_basket_size m | Items per order", "avg_cart_position m",
      "top_products v", "top_departments v"],
  },
});

const IMDB: EvalPackage = evalPackage("imdb", "imdb.malloy", "IMDb non-commercial datasets", {
  ratings: {
    fields: ["tconst s", "averageRating n | Weighted average of all the individual user ratings", "numVotes n", "rated_title_count m",
      "avg_rating m", "top_rated v"],
  },
  titles: {
    joins: { ratings: "ratings" },
    fields: ["tconst s", "titleType s = movie; short; tvSeries; tvEpisode; tvMovie; tvMiniSeries; video; videoGame; tvSpecial",
      "primaryTitle s", "originalTitle s", "isAdult b", "startYear n", "endYear n", "runtimeMinutes n",
      "genres s = Drama; Comedy; Documentary; Action; Romance; Thriller; Crime; Horror; Adventure; Family; Animation; Fantasy; Mystery; Sci-Fi; Biography; History; Music; War; Western; Sport",
      "title_count m", "avg_runtime m", "titles_by_genre v", "titles_by_decade v"],
  },
  people: {
    fields: ["nconst s", "primaryName s", "birthYear n", "deathYear n",
      "primaryProfession s = actor; actress; director; writer; producer; composer; cinematographer; editor; stunts; soundtrack",
      "knownForTitles s", "person_count m"],
  },
  principals: {
    joins: { title: "titles", person: "people" },
    fields: ["tconst s", "ordering n", "nconst s",
      "category s = actor; actress; self; director; writer; producer; composer; cinematographer; editor; production_designer; archive_footage",
      "job s", "characters s", "credit_count m"],
  },
  episodes: {
    joins: { series: "titles" },
    fields: ["tconst s", "parentTconst s", "seasonNumber n", "episodeNumber n", "episode_count m"],
  },
  akas: {
    joins: { title_basics: "titles" },
    fields: ["titleId s", "ordering n", "title s", "region s = US; GB; FR; DE; IN; JP; ES; IT; CA; BR; MX; RU", "language s",
      "types s = imdbDisplay; original; alternative; festival; dvd; tv; working", "attributes s", "isOriginalTitle b", "aka_count m"],
  },
});

/** All packages of the second held-out set. */
export const HELDOUT2_PACKAGES: EvalPackage[] = [INSTACART, IMDB];

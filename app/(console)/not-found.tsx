import { Button, Result } from "antd";
import { getTranslations } from "next-intl/server";
import { Link } from "@/components/primitives/link";

/** A console address with nothing behind it (a job or rank table that does not exist), inside the console's shell. */
export default async function ConsoleNotFound() {
  const t = await getTranslations("errors");
  return (
    <Result
      status="404"
      title={t("notFoundTitle")}
      subTitle={t("notFound")}
      extra={
        <Link href="/">
          <Button type="primary">{t("backHome")}</Button>
        </Link>
      }
    />
  );
}
